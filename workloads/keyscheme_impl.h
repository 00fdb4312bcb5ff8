/* keyscheme_impl.h -- what the key scheme's three source files share.
 *
 * The key scheme is one concept in three jobs, one file each:
 *  - keyscheme.c: the field table (field_defs[], the one place that says
 *    what each field is), the parse tree, the parser, the printer of the
 *    normalised expression, the length calculation and the presets;
 *  - keyscheme_encode.c: the compiler (parse tree -> flat op[]), the
 *    per-run encoder (RNG, OpenTSDB-style UID tables) and the writers of
 *    every field's bytes;
 *  - keyscheme_plan.c: planning reads into row ranges, from the parse tree,
 *    through the encoder's writers.
 * This header holds the data they all read -- the field table's row type,
 * the parse tree node, the compiled op, the scheme and the encoder -- and
 * the few functions one file offers another (prefix ks_). Nothing here is
 * public: the API is workloads/keyscheme.h.
 */
#ifndef REGIONSIM_KEYSCHEME_IMPL_H
#define REGIONSIM_KEYSCHEME_IMPL_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/keyscheme.h"
#include "workloads/record.h"
#include "workloads/rng.h"

#define KS_MAX_DEPTH 16           /* transforms nested deeper are an error */
#define KS_MAX_ARGS 2
#define KS_MAX_BUCKETS 65536u
#define KS_MAX_LETTERS 26u        /* the ':str' letter form: buckets a..z */
#define KS_MAX_UID_WIDTH 8u       /* OpenTSDB UniqueId: width in 1..8 */
#define KS_TS_STR_DIGITS 13       /* ms since 1970 until year 2286 */
#define KS_REVTS_DIGITS 19        /* Long.MAX_VALUE = 9223372036854775807 */
#define KS_U64_DIGITS 20          /* UINT64_MAX = 18446744073709551615 */
#define KS_MD5_BYTES 16           /* RFC 1321: a 128-bit digest */
#define KS_INT64_MAX UINT64_C(9223372036854775807) /* Java's Long.MAX_VALUE */

/* Apache Phoenix: SaltingUtil.MAX_BUCKET_NUM = 256 ("Unsigned byte"), and
 * MetaDataClient rejects SALT_BUCKETS above it with INVALID_BUCKET_NUM
 * (phoenix-core/src/main/java/org/apache/phoenix/schema/SaltingUtil.java,
 * .../schema/MetaDataClient.java). */
#define PHOENIX_MAX_BUCKETS 256u

/* OpenTSDB facts (src/core/Const.java, src/core/TSDB.java,
 * src/core/IncomingDataPoints.java): a row holds one hour, base time =
 * ts - ts % MAX_TIMESPAN in seconds, stored in TIMESTAMP_BYTES = 4 bytes;
 * UIDs of metrics, tag keys and tag values are 3 bytes wide by default
 * (METRICS_WIDTH, TAG_NAME_WIDTH, TAG_VALUE_WIDTH). */
#define OPENTSDB_MAX_TIMESPAN 3600u
#define OPENTSDB_TIMESTAMP_BYTES 4
#define OPENTSDB_TAG_WIDTH 3
#define KS_MAX_TAGS 2u            /* tags: host, and the workload's extra tag */

/* ------------------------------------------------------------------------
 * The field table's vocabulary (the table itself is in keyscheme.c).
 * ---------------------------------------------------------------------- */

typedef enum op_code {
    OP_NONE = 0,
    OP_TS, OP_TS_STR, OP_REVTS, OP_REVTS_STR, OP_ENTITY, OP_NAME, OP_KEY,
    OP_SEQ, OP_SEQ_STR, OP_LITERAL, OP_SALT,
    OP_MARK,            /* BEGIN of an in-place transform: remember p */
    OP_RESERVE,         /* BEGIN of a replacing transform: remember p, reserve width */
    OP_HASH_END, OP_REST_END, OP_MD5_END, OP_REVERSE_END, OP_REVDOMAIN_END,
    OP_SKIP_BEGIN, OP_SKIP_END,
    OP_UID, OP_HOUR, OP_TAGS
} op_code;

typedef enum arg_kind {
    ARG_NONE = 0,
    ARG_BUCKETS,          /* a bucket count 1..65536: sets n and width */
    ARG_PHOENIX_BUCKETS,  /* a bucket count 1..256: sets n and width */
    ARG_FIELD,            /* exactly one inner field */
    ARG_FIELDS,           /* one or more inner fields, up to ')' */
    ARG_UID_KIND,         /* metric | host | entity: sets table */
    ARG_UID_WIDTH,        /* 1..8: sets width */
    ARG_TS,               /* the word ts (hour(ts)) */
    ARG_TAG_COUNT         /* 1..2: sets n and width */
} arg_kind;

/* UIDs. OpenTSDB keeps metrics, tag keys and tag values in separate UID
 * spaces (UniqueId kinds "metrics", "tagk", "tagv"); entities get a space
 * of their own. A space can hold several kinds of names: host names and
 * the extra tag's values are both tag values, so they share one counter,
 * but each kind is its own dense array (indexed by host or tag number). */
typedef enum uid_space { SPACE_METRIC, SPACE_TAGK, SPACE_TAGV, SPACE_ENTITY, UID_SPACES } uid_space;
typedef enum name_kind { NAME_METRIC, NAME_TAGK, NAME_HOST, NAME_TAGVAL, NAME_ENTITY, NAME_KINDS } name_kind;
enum { TAGK_HOST = 0, TAGK_TAG1 = 1 };  /* name ids of the tag keys "host", "tag1" */

enum {
    F_BUCKET_PREFIX = 1,    /* a bucket: keyscheme_buckets when first; ':str' = letter */
    F_KEEPS_INNER = 2,      /* a transform that keeps its inner bytes */
    F_COVERS_REST = 4,      /* its value depends on the fields after it in its list */
    F_SKIPS_TIME = 8,       /* ... not counting the time fields among them */
    F_TIME = 16,            /* a time field, left out by F_SKIPS_TIME */
    F_SLICE = 32,           /* takes a byte slice [start:end] */
    F_LITERAL = 64,         /* a string or separator, not a name */
    F_OPTIONAL_ARGS = 128,  /* "(...)" may be left out: its number is then 1 */
    F_DESCENDING = 256      /* a time field whose bytes sort newest first */
};

/* What a field's own bytes depend on (field.reads), for planning reads: a
 * query that knows every value a field reads knows its bytes. Computed at
 * parse time from what the field writes (keyscheme.c, field_reads): ts,
 * revts and hour(ts) read the time; entity the entity id; entity:str and
 * key the name, which is made of the metric, host and tag of a series,
 * the id of other entities, or a trace's key (record_name); uid(metric),
 * uid(host) and uid(entity) their one name; tags the host (and the extra
 * tag with tags(2)); salt the RNG. A transform reads nothing itself: its
 * inner fields read for it. */
enum {
    R_TIME = 1,       /* the timestamp */
    R_SEQ = 2,        /* the sequence number */
    R_ENTITY = 4,     /* the entity id */
    R_METRIC = 8,     /* the metric of a series */
    R_HOST = 16,      /* the host of a series */
    R_TAG = 32,       /* the extra tag of a series */
    R_KEY = 64,       /* a trace record's key (and the naming style) */
    R_RANDOM = 128,   /* the RNG: no query knows it */
    /* the entity's name or key: whatever record_name may read */
    R_NAME = R_ENTITY | R_METRIC | R_HOST | R_TAG | R_KEY
};

typedef struct field_def {
    const char *name;
    arg_kind args[KS_MAX_ARGS];
    uint8_t op;       /* op of the binary form; BEGIN op of a transform */
    uint8_t str_op;   /* op of the ":str" form; OP_NONE: no text form */
    uint8_t end_op;   /* END op of a transform; OP_NONE for plain fields */
    uint16_t len;     /* bytes it writes itself (at most); 0: its width */
    uint16_t str_len; /* the same for the text form */
    uint16_t flags;
} field_def;

/* ------------------------------------------------------------------------
 * The parsed and compiled scheme, and the per-run encoder.
 * ---------------------------------------------------------------------- */

typedef struct field {
    const field_def *def;
    uint32_t n;       /* bucket count; tag count; md5 slice start */
    uint32_t aux;     /* md5 slice end; literal: offset in the pool */
    uint32_t width;   /* bytes it writes itself: bucket prefix, UID, tags, md5, literal */
    uint32_t span;    /* nodes in this subtree, itself included */
    uint32_t col;     /* 1-based column of its name, for later passes' messages */
    uint32_t arg_col; /* 0-based column of its bucket count */
    uint8_t text;     /* ":str" given */
    uint8_t table;    /* uid(): which name_kind */
    uint16_t reads;   /* R_ bits: the record values its own bytes depend on */
} field;

typedef struct op {
    uint8_t code;     /* op_code */
    uint8_t slot;     /* mark slot of a BEGIN/END pair: its nesting depth */
    uint8_t table;    /* name_kind of uid() */
    uint8_t text;     /* the ':str' form: a bucket letter, md5 in hex */
    uint32_t width;   /* bytes written: prefix, UID, md5 output, literal */
    uint32_t n;       /* buckets; tag count; md5 slice start */
    uint32_t a, b;    /* md5 slice end; literal offset; osalt: skip slots [a, b) */
} op;

struct keyscheme {
    field *fields;    /* pre-order, see the top of keyscheme.c */
    size_t nfields;
    uint8_t *lits;    /* the bytes of every literal */
    op *ops;
    size_t nops;
    uint32_t nskips;  /* skip slots the ops use */
    size_t max_len;   /* longest key */
    size_t peak;      /* most bytes in use while encoding, >= max_len */
    char *expr;       /* normalised */
};

/* A UID table: name id -> UID, an open-addressing hash table over the
 * names actually written (keyscheme_encode.c). */
typedef struct uid_slot {
    uint32_t id;       /* the name id (metric, host, tag or entity number) */
    uint32_t uid;      /* its UID; 0 marks an empty slot (UIDs start at 1) */
} uid_slot;

typedef struct uid_table {
    uid_slot *slots;   /* cap slots, at most half of them used */
    size_t cap;        /* 0 or a power of two */
    size_t count;      /* names held */
} uid_table;

struct keyencoder {
    const keyscheme *ks;
    rng rng;
    uid_table names[NAME_KINDS];
    uint32_t last[UID_SPACES];   /* the last UID assigned per space; the first is 1 */
    size_t mark[KS_MAX_DEPTH];   /* BEGIN positions, by nesting depth */
    size_t *skip;                /* skip slot s: bytes [skip[2s], skip[2s+1]) */
    uint8_t *scratch;            /* ks->peak bytes: the working key of plans and of
                                  * encodes into a buffer shorter than the peak */
};

/* ------------------------------------------------------------------------
 * Shared helpers.
 * ---------------------------------------------------------------------- */

/* The op `code` of field f at nesting depth `depth`, as compiled. */
static inline op op_of(const field *f, uint8_t code, unsigned depth)
{
    assert(depth < KS_MAX_DEPTH);
    op o = { code, (uint8_t)depth, f->table, f->text, f->width, f->n, f->aux, 0 };
    return o;
}

/* Writes v as `width` big-endian bytes (the low bytes of v). */
static inline void put_be(uint8_t *out, uint64_t v, unsigned width)
{
    for (unsigned i = width; i-- > 0; v >>= 8)
        out[i] = (uint8_t)v;
}

/* Bucket b as a bucket field writes it: the letter 'a' + b in the text
 * form (the HBase Reference Guide's a-foo0003 example), else big-endian
 * in the field's width. */
static inline void put_bucket(uint8_t *out, uint32_t b, int text, unsigned width)
{
    if (text)
        out[0] = (uint8_t)('a' + b);
    else
        put_be(out, b, width);
}

/* OpenTSDB's tag pairs, in key order (keyscheme_encode.c). */
typedef struct tag_def {
    uint8_t tagk;     /* the tag key's name id (a NAME_TAGK) */
    uint8_t values;   /* the name_kind of its values */
} tag_def;
extern const tag_def ks_tag_defs[KS_MAX_TAGS];

/* The R_ bit of the record value a name kind's names come from (0 for
 * tag keys: their names are constants). */
static inline uint16_t name_reads(unsigned kind)
{
    static const uint16_t reads[NAME_KINDS] = {
        [NAME_METRIC] = R_METRIC, [NAME_TAGK] = 0, [NAME_HOST] = R_HOST,
        [NAME_TAGVAL] = R_TAG, [NAME_ENTITY] = R_ENTITY,
    };
    assert(kind < NAME_KINDS);
    return reads[kind];
}

/* keyscheme_encode.c: compiles ks->fields into ks->ops (room for 4 ops a
 * field allocated by the caller); sets nops and nskips. */
void ks_compile(keyscheme *ks);

/* The UID of name `id` of a kind, 0 if none is assigned yet. Never assigns. */
uint32_t ks_uid_find(const keyencoder *ke, unsigned kind, uint32_t id);

/* Whether the UIDs of a kind assigned so far fit `width` bytes, so that no
 * two of its names share a key (past 2^(8 width) - 1 names the low bytes
 * repeat). */
int ks_uid_unique(const keyencoder *ke, unsigned kind, uint32_t width);

/* The name id a UID table is keyed by, for this record. */
uint32_t ks_uid_name_id(const record *rec, unsigned kind);

/* Java's Arrays.hashCode over bytes, streamed from h (start from 1), and
 * the bucket of a Java hash among n (Phoenix's and OpenTSDB's formula). */
uint32_t ks_java_hash(uint32_t h, const uint8_t *bytes, size_t len);
uint32_t ks_java_bucket(uint32_t h, uint32_t n);

/* The planner's way to the encoder's writers: the bytes of value op o
 * (one that reads the record and nothing else) at out; returns the
 * length. */
size_t ks_put_value(const keyscheme *ks, const op *o, const record *rec, uint8_t *out);

/* The same for the END op of a transform, its BEGIN at `at` and its inner
 * bytes ending at p; returns the new end of the key. */
size_t ks_end_transform(const op *o, uint8_t *k, size_t at, size_t p);

#endif
