/* keyscheme.h -- row-key schemes: a field list that turns a record into a key.
 *
 * A scheme is parsed once from an expression such as "salt(8) ts" into an
 * immutable keyscheme. Encoding needs per-run state (the RNG behind salt(),
 * OpenTSDB-style UID tables assigned in order of first use), kept in a
 * keyencoder, so two runs never share mutable state. The grammar and every
 * field are documented in docs/keyschemes.md.
 *
 * Presets are named expressions of the same language; a preset with buckets
 * (salted, hashed, ...) takes the bucket count as a parameter, normally the
 * number of servers.
 */
#ifndef REGIONSIM_KEYSCHEME_H
#define REGIONSIM_KEYSCHEME_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/pattern.h"
#include "workloads/record.h"

/* Longest key any scheme may produce. HBase's own row limit is 32767
 * bytes (KEY_MAX_LEN); a scheme may in principle exceed it (`salt(8) key`
 * on a 32767-byte trace key), and the engine refuses such a key when it
 * meets one. */
#define KEYSCHEME_MAX_KEY 65536

/* Most bytes the fields `key` and `entity:str` copy from a record: as long
 * as any HBase row (the trace reader refuses longer keys), so a trace key
 * is never cut. A trace key read as a name (entity:str, its shell form,
 * up to 4 bytes per byte) is cut to this length. */
#define KEYSCHEME_MAX_NAME 32767

typedef struct keyscheme keyscheme;
typedef struct keyencoder keyencoder;

/* Parses expr. On success returns 0 and sets *out. On error returns -1 and
 * writes to err (errcap bytes) a message naming the 1-based column, the
 * token found and what was expected, e.g.
 *   "column 6: expected ',' or ')' after the bucket count, found 'x'". */
int keyscheme_parse(const char *expr, keyscheme **out, char *err, size_t errcap);

void keyscheme_free(keyscheme *ks);

/* The expression the scheme was parsed from, normalised (single spaces). */
const char *keyscheme_expr(const keyscheme *ks);

/* Presets, in the order a compare table lists them. */
size_t keyscheme_preset_count(void);
const char *keyscheme_preset_name(size_t i);

/* The preset nearest `word` (a misspelt preset: "monotnic", "hahsed"), by
 * core/nearest.h's distance within its usual limit, or NULL when none is
 * near; a preset's own name returns itself. For "did you mean". */
const char *keyscheme_preset_nearest(const char *word);

/* Writes the expression of preset `name` with `buckets` as its bucket count
 * (at most 65536, what a 2-byte bucket prefix holds: more is capped) into
 * out (cap bytes). Returns 0, or -1 if no such preset. */
int keyscheme_preset_expr(const char *name, uint32_t buckets, char *out, size_t cap);

/* Longest key this scheme can produce, <= KEYSCHEME_MAX_KEY. */
size_t keyscheme_max_len(const keyscheme *ks);

/* If the key starts with a bucket prefix (salt(N), hash(N, ...), psalt(N) or
 * osalt(N)), returns N and the prefix width in bytes (1 for N <= 256, else
 * 2; 1 for the letter form ':str') in *width; otherwise returns 0. */
uint32_t keyscheme_buckets(const keyscheme *ks, size_t *width);

/* The prefix bytes of bucket b (< keyscheme_buckets) into out (>= 2 bytes):
 * b big-endian, or the letter 'a' + b in the ':str' form; returns the
 * width. Pre-splitting at buckets 1..N-1 gives N regions, one per bucket. */
size_t keyscheme_bucket_prefix(const keyscheme *ks, uint32_t b, uint8_t *out);

/* A per-run encoder, its randomness drawn from `seed`. NULL if out of memory. */
keyencoder *keyencoder_new(const keyscheme *ks, uint64_t seed);
void keyencoder_free(keyencoder *ke);

/* Encodes rec into out (cap >= keyscheme_max_len bytes). Returns the key
 * length (>= 1). */
size_t keyencoder_encode(keyencoder *ke, const record *rec, uint8_t *out, size_t cap);

/* Whether the scheme's key is a function of the record alone: no salt()
 * (a draw from the encoder's RNG) and no OpenTSDB UID (uid(), tags:
 * assigned in the order names are first met). Then encoding a record
 * changes nothing an encoding of another record could see, so records may
 * be encoded early, out of order or twice (the engine encodes the next
 * writes ahead, to prefetch their route) with the same keys. */
int keyscheme_is_pure(const keyscheme *ks);

/* ------------------------------------------------------------------------
 * Reads: planning a logical read into the row ranges it must scan.
 *
 * The planner walks the scheme's fields left to right with a set of
 * candidate key prefixes (docs/keyschemes.md, on how a scheme plans a read):
 * a field the query determines appends its bytes, a bucket it does not
 * determine multiplies the candidates by its N prefixes, the time field of
 * a time query turns each candidate into a range, and anything else the
 * query does not determine makes the read a full-table scan.
 * ---------------------------------------------------------------------- */

/* The read kinds. Each has one name (query_kind_name): reports use it
 * (JSON by_kind.<name>, text columns) and so do the settings (read_<name>
 * weights the kind in a read mix). A new kind is one enum entry here, its
 * name, what the planner knows for it and what its rows share
 * (keyscheme_plan.c: query_knows, query_pins) and what the engine expects
 * it to return (engine/engine_ops.c, build_query, from engine/truth.h). */
typedef enum query_kind {
    QUERY_GET = 0,   /* one record's row: rec is the record as written */
    QUERY_RANGE,     /* one entity's rows with from_ms <= ts <= to_ms: rec names the entity */
    QUERY_LATEST,    /* one entity's newest `limit` rows: rec names the entity */
    QUERY_WINDOW,    /* every entity's rows with from_ms <= ts <= to_ms */
    QUERY_METRIC,    /* every series of one metric (all hosts and tags) with from_ms <= ts <= to_ms:
                      * rec.metric names it (OpenTSDB's everyday query) */
    QUERY_SCAN,      /* the first `limit` rows whose name is at or after rec's name, in name
                      * order (YCSB's scan: a forward Scan from the record's row,
                      * scanlength rows); rec as for GET */
    QUERY_KINDS
} query_kind;

/* The kind's name: "get", "range", "latest", "window", "metric"; "?" out
 * of range. Inline: reports name kinds without linking the workloads
 * library. */
static inline const char *query_kind_name(query_kind k)
{
    static const char *const names[QUERY_KINDS] = {
        [QUERY_GET] = "get", [QUERY_RANGE] = "range", [QUERY_LATEST] = "latest",
        [QUERY_WINDOW] = "window", [QUERY_METRIC] = "metric", [QUERY_SCAN] = "scan",
    };
    return (unsigned)k < QUERY_KINDS ? names[k] : "?";
}

typedef struct query {
    query_kind kind;
    record rec;               /* GET: the record; RANGE, LATEST: its entity fields (entity, metric, host, tag, naming, key);
                               * METRIC: rec.metric; the planner reads nothing else of it */
    uint64_t from_ms, to_ms;  /* RANGE, WINDOW, METRIC: inclusive */
    uint32_t limit;           /* LATEST, SCAN */
    uint8_t multi_get;        /* RANGE on a key with osalt: OpenTSDB's tsd.query.multi_get.enable
                               * (0, its default: every salt bucket scanned; 1: one get per
                               * hour row of the series; keyscheme_plan.c) */
} query;

typedef struct key_range {
    size_t lo_off, lo_len;    /* start key (inclusive) in plan.bytes; lo_len 0 = from the first row */
    size_t hi_off, hi_len;    /* end key (exclusive) in plan.bytes; hi_len 0 = to the last row */
    uint32_t limit;           /* 0: every row of the range; else at most this many */
    uint8_t reverse;          /* scan from the end of the range down (HBase reversed scan) */
} key_range;

typedef struct plan {
    uint8_t full_scan;        /* the key order cannot serve the query: one range, the whole table */
    uint8_t exact;            /* the ranges hold only rows the query wants (no filtering):
                               * of its entity (metric) and in its time range; a LATEST over
                               * N ranges reads `limit` of its rows from each; a SCAN's
                               * ranges hold only rows named at or after its name, in name
                               * order, each with limit `limit` (the client merges N bucket
                               * streams and keeps `limit`). A limit on an inexact range
                               * counts matching rows, as HBase applies a scan's limit after
                               * its filters; an inexact SCAN's ranges carry none */
    size_t nranges;
    key_range *ranges;
    uint8_t *bytes;           /* key bytes of the ranges */
    size_t nbytes, bytes_cap, ranges_cap;
} plan;

/* An empty plan owning no memory. */
void plan_init(plan *p);

/* Frees the plan's buffers; leaves it as plan_init does. */
void plan_release(plan *p);

/* Plans q under ke's scheme into *out (reusing its buffers). Returns 0, or
 * -1 if out of memory. Never assigns UIDs: a name never written has no
 * UID, and a query that needs one plans no ranges (nothing to read).
 *
 * The ranges come out sorted by start key and do not overlap. A range may
 * hold rows the query does not want when the key does not pin them down
 * (a scheme without the entity, rows after the time field such as
 * OpenTSDB's tags): the client filters them, and a range's limit counts
 * the rows that pass (HBase applies a scan's limit after its filters).
 * A plan is never short of a row the query wants. Also plans no ranges
 * for RANGE, WINDOW and METRIC with from_ms > to_ms and for LATEST and
 * SCAN with limit 0.
 * Reads the encoder's UID tables and nothing else of it; does not
 * allocate beyond growing out's buffers. */
int keyencoder_plan(keyencoder *ke, const query *q, plan *out);

/* Whether ks is OpenTSDB's salted key for its reads: a top-level osalt of
 * more than one bucket, on hour rows (its first top-level time field is
 * hour(ts)), so that a RANGE scans every bucket unless query.multi_get
 * (keyscheme_plan.c). */
int keyscheme_opentsdb_salted(const keyscheme *ks);

#endif
