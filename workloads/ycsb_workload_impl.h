/* ycsb_workload_impl.h -- what the YCSB workload's source files share (not
 * a public interface: only workloads/ycsb_*.c include it; the API is
 * workloads/ycsb_workload.h).
 *
 * A YCSB workload is one concept in three jobs, one file each:
 *  - ycsb_properties.c: the property set (settings with their origins and
 *    levels, which one wins), the table of known property names and the
 *    nearest-name suggestions, and the message helpers;
 *  - ycsb_propfile.c: java.util.Properties text: reading a workload file
 *    into the set (ycsb_properties_load_file) and writing the set back as
 *    items (ycsb_properties_describe);
 *  - ycsb_workload.c: the stock workloads a..f and resolving a set into a
 *    ycsb_workload, with Java's number parsers.
 * This header holds the set's layout, which all three read, the few
 * functions ycsb_properties.c offers the others (prefix yp_) and
 * three character tests they share. Everything only one file uses stays
 * static in that file.
 */
#ifndef REGIONSIM_YCSB_WORKLOAD_IMPL_H
#define REGIONSIM_YCSB_WORKLOAD_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "workloads/ycsb_workload.h"

/* ---- the property set (ycsb_properties.c) ---- */

/* Where a setting came from: a -p setting wins over any file's
 * (Client.parseArguments). */
enum { LEVEL_FILE = 0, LEVEL_COMMAND_LINE = 1 };

typedef struct entry {
    char *name, *value, *origin;
    int level;
} entry;

struct ycsb_properties {
    entry *v; /* in the order last set */
    size_t n, cap;
};

/* The setting named name, or NULL. */
const entry *yp_find_entry(const ycsb_properties *p, const char *name);

/* Puts the setting last, replacing one of the same name unless that one
 * has a higher level. The name is not checked. Returns 0, or -1 with
 * "ORIGIN: ..." in err if out of memory or too many. */
int yp_put_entry(ycsb_properties *p, const char *name, const char *value,
                  const char *origin, int level, char *err, size_t errcap);

/* yp_put_entry after checking the name against the known properties
 * ("ORIGIN: unknown property 'NAME' (did you mean ...)" in err if not). */
int yp_set_at_level(ycsb_properties *p, const char *name, const char *value,
                           const char *origin, int level, char *err, size_t errcap);

/* ---- messages (ycsb_properties.c) ---- */

/* s as a message shows it: printable ASCII as is, other bytes as \xNN,
 * cut after 64 bytes with "...". */
void yp_show(const char *s, char *out, size_t cap);

/* Formats into err (if any) and returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int yp_fail(char *err, size_t errcap, const char *fmt, ...);

/* ---- characters ---- */

static inline int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* java.util.Properties' white space (LineReader, load0). */
static inline bool is_prop_space(char c)
{
    return c == ' ' || c == '\t' || c == '\f';
}

static inline int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif
