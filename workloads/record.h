/* record.h -- one logical operation, before any row key is made.
 *
 * Patterns (workloads/pattern.h) produce records; key schemes
 * (workloads/keyscheme.h) turn them into row keys. A record carries every
 * value a scheme field may read: the event time, the global sequence
 * number, the entity (series, user, domain...) as a dense numeric id and,
 * for time series, its metric, host and extra tag; a trace record carries
 * its row key as given. The entity's name is not stored: record_name
 * renders it on demand from the id and the naming style, so patterns pay
 * nothing for names a scheme never reads.
 */
#ifndef REGIONSIM_RECORD_H
#define REGIONSIM_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef enum record_op {
    RECORD_PUT = 0,     /* a write of `cells` cells to one row (YCSB insert, update) */
    RECORD_GET,         /* a point read of one row (YCSB read) */
    RECORD_DELETE,      /* a delete marker: written like a put */
    RECORD_SCAN,        /* a forward scan of `rows` rows from the row (YCSB scan) */
    RECORD_RMW,         /* read-modify-write: a get of the row, then a put of
                         * `cells` cells to it (YCSB readmodifywrite) */
} record_op;

/* The op's name in traces and reports: "put", "get", "delete", "scan",
 * "readmodifywrite"; "?" out of range. */
static inline const char *record_op_name(record_op op)
{
    static const char *const names[] = {
        [RECORD_PUT] = "put", [RECORD_GET] = "get", [RECORD_DELETE] = "delete",
        [RECORD_SCAN] = "scan", [RECORD_RMW] = "readmodifywrite",
    };
    return (unsigned)op <= RECORD_RMW ? names[op] : "?";
}

typedef enum record_naming {
    NAMING_SERIES = 0,  /* "metric.007/host0003" (time series) */
    NAMING_SERIES_TAGGED, /* "metric.007/host0003/tag01" (time series with an extra tag) */
    NAMING_USER,        /* YCSB: "user" + fnvhash64(id), e.g. user6284781860667377211 */
    NAMING_USER_ORDERED,/* YCSB with insertorder=ordered: "user" + id, e.g. user42 */
    NAMING_DOMAIN,      /* a web host name: "www.site00042.com" */
    NAMING_ID,          /* the id in decimal, 10 digits: "0000000042" */
    NAMING_KEY,         /* the trace key itself, in HBase shell form */
} record_naming;

typedef struct record {
    uint64_t ts_ms;        /* event time, ms since the Unix epoch */
    uint64_t seq;          /* 0, 1, 2, ...: global order of operations */
    uint32_t entity;       /* the logical id (series, user, domain, ...) */
    uint32_t metric;       /* time series: 0 .. metrics-1 */
    uint32_t host;         /* time series: 0 .. hosts-1 */
    uint32_t tag;          /* time series: value of the extra tag, 0 .. tags-1 (0 if none) */
    uint32_t value_bytes;  /* PUT, RMW: the values' bytes, all cells together;
                            * with cells 0, 0 means the phase's value size */
    uint32_t cells;        /* PUT, RMW: cells written to the row (YCSB fields), and
                            * value_bytes is exact; 0 = one cell */
    uint32_t rows;         /* SCAN: rows to read (YCSB scanlength), >= 1 */
    uint8_t op;            /* record_op */
    uint8_t naming;        /* record_naming */
    uint8_t name_pad;      /* NAMING_USER*: YCSB's zeropadding, digits at least (0 = 1);
                            * names stay within RECORD_NAME_MAX while it is at most 44 */
    uint16_t key_len;      /* trace records: the row key as given ... */
    const uint8_t *key;    /* ... valid until the pattern's next call; NULL otherwise */
} record;

/* Whether a and b are equal in every field (a trace's key by its pointer,
 * as the record holds it). Field by field, not memcmp (padding): a field
 * added to record is added here too. Inline: the engine asks it of
 * every write it encoded ahead (engine/engine_ahead.c). */
static inline int record_equal(const record *a, const record *b)
{
    return a->ts_ms == b->ts_ms && a->seq == b->seq && a->entity == b->entity &&
           a->metric == b->metric && a->host == b->host && a->tag == b->tag &&
           a->value_bytes == b->value_bytes && a->cells == b->cells && a->rows == b->rows &&
           a->op == b->op && a->naming == b->naming && a->name_pad == b->name_pad &&
           a->key_len == b->key_len && a->key == b->key;
}

/* The entity's name as text, into out (cap bytes, NUL-terminated when
 * cap > 0, truncated if short). Returns the full length, like snprintf.
 * Never longer than RECORD_NAME_MAX except for NAMING_KEY, whose name is
 * the key in shell form (up to 4 x key_len). */
#define RECORD_NAME_MAX 48
size_t record_name(const record *r, char *out, size_t cap);

#endif
