/* scenario_impl.h -- what the scenario's source files share (not a public
 * interface: only scenario/scenario*.c include it; the API is scenario/scenario.h).
 *
 * The scenario is one concept in three jobs, one file each:
 *  - scenario.c: the scenario value (the default, the strings it owns, its
 *    schemes and phases) and the settings table, through which files and
 *    options set every value (scenario_set) and reports read it back
 *    (scenario_format_value);
 *  - scenario_file.c: reading a scenario file (scenario_load);
 *  - scenario_check.c: what needs the whole scenario: the checks across
 *    settings (scenario_validate), the servers over the run, the split keys.
 * This header holds the settings table's row type, which the file reader
 * looks settings up in, and the few functions scenario.c offers the
 * reader. Everything only one file uses stays static in that file.
 */
#ifndef REGIONSIM_SCENARIO_IMPL_H
#define REGIONSIM_SCENARIO_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "scenario/scenario.h"

#define SECOND_US 1000000ull

/* How much of a user's value a message shows: enough to recognise it,
 * little enough that the message keeps its reason. */
#define SHOWN 100

/* ---- the settings table's rows (the table itself: scenario.c) ---- */

typedef enum setting_kind {
    SET_COUNT, SET_SIZE, SET_DURATION, SET_RATE, SET_FRACTION, SET_CHOICE, SET_NAME, SET_PATH,
    SET_DISTRIBUTION, /* a YCSB distribution: workloads/dist.h names them */
    SET_KEYS,         /* split keys in shell form, separated by commas or spaces */
} setting_kind;

typedef struct choice {
    const char *name;
    uint32_t value;
} choice;

typedef enum setting_target { IN_SCENARIO, IN_PHASE } setting_target;

typedef struct setting {
    const char *section;     /* "" = top level */
    const char *key;
    setting_kind kind;
    uint64_t lo, hi;         /* accepted range (counts, sizes, durations) */
    setting_target target;   /* where offset points: scenario or phase */
    size_t offset, width;    /* where the value goes: 4 or 8 bytes */
    const choice *choices;   /* SET_CHOICE: ends with a NULL name */
    const char *arg;         /* what the option takes, for --help: N, SIZE, D, ... */
    const char *help;        /* one sentence for --help */
} setting;

/* The setting whose key is key, or NULL. */
const setting *scenario_setting_find(const char *key);

/* Parses value for s and stores it into base (sc itself, or a phase of
 * sc, as s->target says); a name, path or key list is copied into sc.
 * Returns 0, or -1 with "expected ..., found '...'" in err. Besides what
 * the value implies in base itself (trace = FILE: the phase replays it;
 * split_keys(_file): pre-split by keys; a duration or read weight: noted
 * as given), it changes nothing: unlike scenario_set, no other phase, not
 * size_scale's two sizes, not where the split keys came from. */
int scenario_setting_apply(scenario *sc, void *base, const setting *s, const char *value,
                           char *err, size_t errcap);

/* "unknown key 'KEY'; expected one of: ..." in err, listing section's keys
 * (every key when section is NULL). Returns -2. */
int scenario_unknown_key(const char *section, const char *key, char *err, size_t errcap);

/* ---- strings the scenario owns (freed by scenario_release) ---- */

/* A copy of s that sc owns, or NULL when out of memory. */
const char *scenario_own(scenario *sc, const char *s);

/* A zeroed block of `bytes` the scenario owns (freed with it). NULL if out
 * of memory. */
void *scenario_own_block(scenario *sc, size_t bytes);

/* A copy of s with its control bytes as \xNN (sc owns it), or s itself
 * when it has none; NULL when out of memory. */
const char *scenario_own_printable(scenario *sc, const char *s);

#endif
