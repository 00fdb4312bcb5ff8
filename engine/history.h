/* history.h -- what happened to a run's regions and servers, for reports.
 *
 * The engine points the cluster's journal at history_journal: every split
 * closes a region (its figures go into the region log) and adds a timeline
 * event, as do moves and reassignments; the engine adds server events
 * itself. At the end history_finish appends the live regions and hands
 * both arrays to the run_result. Out of memory inside the journal (which
 * cannot fail) is remembered and reported by history_finish.
 *
 * Keys are logged in the shell form reports print, and a boundary appears
 * in several records (a split key is the event's key, one daughter's end,
 * the other's start, and again when each daughter closes), so each distinct
 * string is stored once, in blocks the run_result owns (history_text):
 * at a million regions that is about 50 MB, where a string per field took
 * some 400 MB (and their table of 32-bit places, 4 bytes a slot). A string is found by hashing the key's bytes and reading
 * candidates against them (key_is_formatted), so a key already logged is
 * not formatted again; a split's three keys' slots and strings are asked
 * of memory together before any is read (history.c). The log's and the
 * timeline's arrays grow by bigarray (mremap past a MiB: no copy).
 */
#ifndef REGIONSIM_HISTORY_H
#define REGIONSIM_HISTORY_H

#include <stddef.h>

#include "core/cluster.h"
#include "engine/result.h"

typedef struct history {
    const cluster *table;   /* for the time of each change */
    struct history_text *text; /* the key strings, each distinct one once */
    region_result *regions;     /* both arrays grow by bigarray (core/bigarray.h) */
    size_t nregions, regions_cap;
    int regions_mapped;
    timeline_event *events;
    size_t nevents, events_cap;
    int events_mapped;
    int failed;             /* ran out of memory: the log is incomplete */
} history;

/* An empty history of the cluster c. */
void history_init(history *h, const cluster *c);

/* A cluster_journal_fn; ctx is the history. */
void history_journal(void *ctx, cluster_change what, const region *r, keyref at,
                     uint32_t from, uint32_t to, const split_why *why);

/* A balancer run at t_us, the run_result.balancer_log entry `index`. */
void history_balancer_event(history *h, uint64_t t_us, size_t index);

/* A server event at t_us (TIMELINE_SERVERS_ADDED, _DECOMMISSION, _FAILURE). */
void history_server_event(history *h, uint64_t t_us, timeline_kind kind, uint32_t from,
                          uint32_t to);

/* Appends the regions live in c at end_us (in key order) and moves the
 * region log and timeline into out->history and out->events. Returns 0, or
 * -1 if memory ran out at any point (out then gets nothing). */
int history_finish(history *h, cluster *c, uint64_t end_us, run_result *out);

void history_release(history *h);

/* Frees a run_result's region log and timeline. */
void history_free_results(run_result *out);

#endif
