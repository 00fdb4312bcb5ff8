/* keyscheme.c -- row-key schemes: parse once, compile to ops, encode fast.
 *
 * Grammar (whitespace separates tokens and is otherwise ignored):
 *
 *     scheme  = field { field } ;
 *     field   = name [ "(" arg { "," arg } ")" ] [ slice ] [ ":" "str" ]
 *             | string | separator ;
 *     slice   = "[" number ":" number "]" ;            (md5 only)
 *     string  = '"' { byte | "\xNN" | '\"' | "\\" } '"' ;
 *     separator = "#" | "-" | "|" | "/" | "." | "~" | "+" | "@" | "!" | "=" ;
 *
 * What a field's arguments are (a bucket count, one field, a list of fields,
 * a UID name kind, a width, the word ts, a tag count), whether it has a
 * ":str" text form, a byte slice, optional arguments, how it relates to
 * the fields around it and which record values its bytes depend on is
 * data, in field_defs[] below: the parser, the printer, the length
 * calculation, the compiler and the read planner read that table and
 * never name a field. A new field is one row there plus, if it writes new
 * bytes, a writer called from the encoder's switch and from put_value.
 *
 * Three representations, each for one job:
 *  - field[]: the parse tree, flattened in pre-order; each node records
 *    `span`, the size of its subtree, so the children of node i are the
 *    nodes i+1 .. i+span-1 and its next sibling is i+span. Planning reads
 *    and printing the normalised expression walk this. Literal bytes live in
 *    one pool next to it (a node holds an offset and a length).
 *  - op[]: the same tree compiled for encoding, a flat array where a
 *    transform (hash, md5, reverse, revdomain) is a BEGIN op, its inner
 *    fields' ops, and an END op. BEGIN remembers the output position in a
 *    mark slot (one per nesting depth); END works on the bytes since the
 *    mark: hash() and md5() replace them by the output they reserved at
 *    BEGIN, reverse() and revdomain() rearrange them in place.
 *    Fields whose bytes depend on LATER fields (psalt, osalt: F_COVERS_REST)
 *    compile the same way, with the fields that follow them in their list
 *    as their inner fields: BEGIN reserves the salt, the rest of the list
 *    is written after it, END hashes those bytes and fills the salt in.
 *    osalt leaves time fields out of its hash: each time field after it is
 *    bracketed by SKIP ops that record where its bytes are (a numbered slot
 *    per such field, fixed at compile time), and END hashes around them.
 *    So encoding never allocates, never shifts bytes and never recurses:
 *    one pass over ops writing straight into the caller's buffer. hash()
 *    and md5() need their input bytes somewhere before they are discarded,
 *    so a scheme has a `peak` (most bytes in use at once) next to max_len;
 *    when the caller's buffer is smaller than the peak the encoder works in
 *    a stack buffer and copies (never the case for the presets that do not
 *    use md5: their peak is their max_len).
 *  - keyencoder: the per-run mutable state: the RNG behind salt(), the
 *    OpenTSDB-style UID tables, and the mark and skip slots encoding uses.
 *    A UID table is a growable array indexed by the record's dense id
 *    (metric, host, tag or entity number) holding the UID, 0 for "not
 *    assigned yet": one load on the hot path instead of a hash lookup.
 *
 * Reads are planned from field[], not from op[] (keyencoder_plan, at the
 * end of the file): a query knows some record values (a GET all, a RANGE
 * or LATEST the entity, a WINDOW none), and the planner walks the top-level
 * fields left to right. A field whose inputs the query knows is evaluated
 * (recursively, with the encoder's writers, looking UIDs up without ever
 * assigning one) and appended to every candidate prefix; a bucket it
 * cannot know multiplies the candidates by N; the time field of a time
 * query ends the walk, turning each candidate into a range; anything else
 * it cannot know makes the read a full scan. Candidates are a shared
 * template plus bucket slots, so planning allocates nothing but the
 * plan's own buffers.
 */
#include "workloads/keyscheme.h"

#include <assert.h>
#include <inttypes.h>
#include <md5.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/key.h"
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
 * The field table.
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
static const uint8_t space_of[NAME_KINDS] = { SPACE_METRIC, SPACE_TAGK, SPACE_TAGV, SPACE_TAGV, SPACE_ENTITY };
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
    /* What a field's own bytes depend on, for planning reads (F_TIME too):
     * a query that knows these values knows the bytes. */
    F_READS_ENTITY = 256,   /* the entity: its id, name, key, metric, host, tag */
    F_READS_SEQ = 512,      /* the sequence number */
    F_RANDOM = 1024,        /* the RNG: no query knows it */
    F_DESCENDING = 2048     /* a time field whose bytes sort newest first */
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

static const field_def field_defs[] = {
    { "ts",        { ARG_NONE },                    OP_TS, OP_TS_STR, OP_NONE, 8, KS_U64_DIGITS, F_TIME },
    { "revts",     { ARG_NONE },                    OP_REVTS, OP_REVTS_STR, OP_NONE, 8, KS_REVTS_DIGITS,
                   F_TIME | F_DESCENDING },
    { "entity",    { ARG_NONE },                    OP_ENTITY, OP_NAME, OP_NONE, 4, KEYSCHEME_MAX_NAME, F_READS_ENTITY },
    { "key",       { ARG_NONE },                    OP_KEY, OP_NONE, OP_NONE, KEYSCHEME_MAX_NAME, 0, F_READS_ENTITY },
    { "seq",       { ARG_NONE },                    OP_SEQ, OP_SEQ_STR, OP_NONE, 8, KS_U64_DIGITS, F_READS_SEQ },
    { "salt",      { ARG_BUCKETS },                 OP_SALT, OP_SALT, OP_NONE, 0, 1, F_BUCKET_PREFIX | F_RANDOM },
    { "hash",      { ARG_BUCKETS, ARG_FIELDS },     OP_RESERVE, OP_RESERVE, OP_HASH_END, 0, 1, F_BUCKET_PREFIX },
    { "psalt",     { ARG_PHOENIX_BUCKETS },         OP_RESERVE, OP_RESERVE, OP_REST_END, 0, 1,
                   F_BUCKET_PREFIX | F_COVERS_REST },
    { "osalt",     { ARG_BUCKETS },                 OP_RESERVE, OP_RESERVE, OP_REST_END, 0, 1,
                   F_BUCKET_PREFIX | F_COVERS_REST | F_SKIPS_TIME },
    { "md5",       { ARG_FIELDS },                  OP_RESERVE, OP_RESERVE, OP_MD5_END, 0, 0, F_SLICE },
    { "reverse",   { ARG_FIELD },                   OP_MARK, OP_NONE, OP_REVERSE_END, 0, 0, F_KEEPS_INNER },
    { "revdomain", { ARG_FIELD },                   OP_MARK, OP_NONE, OP_REVDOMAIN_END, 0, 0, F_KEEPS_INNER },
    { "uid",       { ARG_UID_KIND, ARG_UID_WIDTH }, OP_UID, OP_NONE, OP_NONE, 0, 0, F_READS_ENTITY },
    { "hour",      { ARG_TS },                      OP_HOUR, OP_NONE, OP_NONE, OPENTSDB_TIMESTAMP_BYTES, 0, F_TIME },
    { "tags",      { ARG_TAG_COUNT },               OP_TAGS, OP_NONE, OP_NONE, 0, 0,
                   F_OPTIONAL_ARGS | F_READS_ENTITY },
    { "a literal", { ARG_NONE },                    OP_LITERAL, OP_NONE, OP_NONE, 0, 0, F_LITERAL },
};
#define FIELD_DEFS (sizeof field_defs / sizeof field_defs[0])

/* The one-byte literals that need no quotes. ':' is not one: it starts
 * ":str". */
static const char separators[] = "#-|/.~+@!=";

static const struct uid_kind {
    const char *name;
    uint8_t kind;     /* name_kind */
} uid_kinds[] = { { "metric", NAME_METRIC }, { "host", NAME_HOST }, { "entity", NAME_ENTITY } };
#define UID_KINDS (sizeof uid_kinds / sizeof uid_kinds[0])

/* What comes after each argument kind, for "expected ',' after ..." */
static const char *arg_noun(arg_kind a)
{
    switch (a) {
    case ARG_BUCKETS:
    case ARG_PHOENIX_BUCKETS: return "the bucket count";
    case ARG_FIELD:           return "the field (it takes exactly one)";
    case ARG_FIELDS:          return "the fields";
    case ARG_UID_KIND:        return "the name kind";
    case ARG_UID_WIDTH:       return "the UID width";
    case ARG_TS:              return "'ts'";
    case ARG_TAG_COUNT:       return "the tag count";
    case ARG_NONE:            break;
    }
    return "";
}

/* The valid range of a numeric argument and how to ask for it; 0 if a is
 * not numeric. */
static int number_arg(arg_kind a, uint32_t *lo, uint32_t *hi, const char **what)
{
    switch (a) {
    case ARG_BUCKETS:
        *lo = 1, *hi = KS_MAX_BUCKETS, *what = "a bucket count 1..65536";
        return 1;
    case ARG_PHOENIX_BUCKETS:
        *lo = 1, *hi = PHOENIX_MAX_BUCKETS, *what = "a bucket count 1..256 (Phoenix's SALT_BUCKETS limit)";
        return 1;
    case ARG_UID_WIDTH:
        *lo = 1, *hi = KS_MAX_UID_WIDTH, *what = "a UID width 1..8";
        return 1;
    case ARG_TAG_COUNT:
        *lo = 1, *hi = KS_MAX_TAGS, *what = "a tag count 1..2";
        return 1;
    default:
        return 0;
    }
}

/* ------------------------------------------------------------------------
 * The parsed and compiled scheme.
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
    field *fields;    /* pre-order, see top of file */
    size_t nfields;
    uint8_t *lits;    /* the bytes of every literal */
    op *ops;
    size_t nops;
    uint32_t nskips;  /* skip slots the ops use */
    size_t max_len;   /* longest key */
    size_t peak;      /* most bytes in use while encoding, >= max_len */
    char *expr;       /* normalised */
};

static uint32_t bucket_width(uint32_t n)
{
    assert(n >= 1 && n <= KS_MAX_BUCKETS);
    return n <= 256 ? 1 : 2;
}

/* Stores a numeric argument of kind a in f: what the number sets. */
static void set_number(field *f, arg_kind a, uint32_t v)
{
    switch (a) {
    case ARG_BUCKETS:
    case ARG_PHOENIX_BUCKETS:
        f->n = v;
        f->width = bucket_width(v);
        break;
    case ARG_UID_WIDTH:
        f->width = v;
        break;
    case ARG_TAG_COUNT:
        f->n = v;
        f->width = v * 2 * OPENTSDB_TAG_WIDTH;
        break;
    default:
        assert(!"not a numeric argument");
    }
}

static const field_def *field_def_find(const char *name, size_t len)
{
    for (size_t i = 0; i < FIELD_DEFS; i++)
        if (strlen(field_defs[i].name) == len && memcmp(field_defs[i].name, name, len) == 0)
            return &field_defs[i];
    return NULL;
}

static const field_def *literal_def(void)
{
    for (size_t i = 0; i < FIELD_DEFS; i++)
        if (field_defs[i].flags & F_LITERAL)
            return &field_defs[i];
    assert(!"no literal row");
    return NULL;
}

/* Appends s to out (cap bytes, always NUL-terminated if cap > 0) at *n;
 * *n counts what would have been written, as snprintf does. */
static void put_str(char *out, size_t cap, size_t *n, const char *s)
{
    for (; *s; s++, (*n)++)
        if (*n + 1 < cap)
            out[*n] = *s;
    if (cap)
        out[*n < cap ? *n : cap - 1] = '\0';
}

/* ------------------------------------------------------------------------
 * Lexer and parser.
 * ---------------------------------------------------------------------- */

typedef enum tok_kind {
    T_END, T_NAME, T_NUMBER, T_LPAREN, T_RPAREN, T_COMMA, T_COLON,
    T_LBRACKET, T_RBRACKET,
    T_STRING,       /* "...", quotes included; escapes not checked yet */
    T_OPEN_STRING,  /* a '"' never closed */
    T_SEP,          /* one of separators[] */
    T_OTHER
} tok_kind;

typedef struct token {
    tok_kind kind;
    size_t at, len;   /* offset and length in the source */
    uint64_t num;     /* T_NUMBER, saturated well above any valid value */
} token;

typedef struct parser {
    const char *src;
    size_t pos;       /* first character not yet lexed */
    token tok;        /* current token */
    field *fields;
    size_t nfields, cap;
    uint8_t *lits;    /* the literal pool */
    size_t nlits, litcap;
    char *err;
    size_t errcap;
    int failed;
} parser;

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_name_char(char c) { return is_name_start(c) || is_digit(c); }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int is_separator(int c) { return c != '\0' && strchr(separators, c) != NULL; }

static tok_kind punct_kind(char c)
{
    switch (c) {
    case '(': return T_LPAREN;
    case ')': return T_RPAREN;
    case ',': return T_COMMA;
    case ':': return T_COLON;
    case '[': return T_LBRACKET;
    case ']': return T_RBRACKET;
    default:  return is_separator(c) ? T_SEP : T_OTHER;
    }
}

/* A string token: from the opening '"' to the closing one; a backslash
 * takes the next character with it, so \" does not close. */
static size_t lex_string(const char *s, size_t i, tok_kind *kind)
{
    for (i++; s[i] != '"'; i++) {
        if (s[i] == '\0') {
            *kind = T_OPEN_STRING;
            return i;
        }
        if (s[i] == '\\' && s[i + 1] != '\0')
            i++;
    }
    *kind = T_STRING;
    return i + 1;
}

static void lex_next(parser *ps)
{
    const char *s = ps->src;
    size_t i = ps->pos;
    while (is_space(s[i]))
        i++;
    token t = { T_END, i, 0, 0 };
    if (s[i] == '\0') {
        /* T_END */
    } else if (is_name_start(s[i])) {
        while (is_name_char(s[i]))
            i++;
        t.kind = T_NAME;
    } else if (is_digit(s[i])) {
        for (; is_digit(s[i]); i++)
            t.num = t.num > UINT32_MAX ? t.num : t.num * 10 + (uint64_t)(s[i] - '0');
        t.kind = T_NUMBER;
    } else if (s[i] == '"') {
        i = lex_string(s, i, &t.kind);
    } else {
        t.kind = punct_kind(s[i++]);
        while (t.kind == T_OTHER && ((unsigned char)s[i] & 0xC0) == 0x80)
            i++; /* the rest of a UTF-8 sequence */
    }
    t.len = i - t.at;
    ps->pos = i;
    ps->tok = t;
}

static int tok_is_word(const parser *ps, const char *word)
{
    return ps->tok.kind == T_NAME && strlen(word) == ps->tok.len
        && memcmp(ps->src + ps->tok.at, word, ps->tok.len) == 0;
}

/* Records the first error: "column C: <message>". Returns -1. */
static int fail_at(parser *ps, size_t at, const char *fmt, ...)
{
    if (!ps->failed && ps->err && ps->errcap) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        snprintf(ps->err, ps->errcap, "column %zu: %s", at + 1, msg);
    }
    ps->failed = 1;
    return -1;
}

/* "column C: expected <what>, found 'tok'" for the current token. */
static int fail_expected(parser *ps, const char *what)
{
    const token *t = &ps->tok;
    if (t->kind == T_END)
        return fail_at(ps, t->at, "expected %s, found end of input", what);
    int shown = t->len > 40 ? 40 : (int)t->len;
    return fail_at(ps, t->at, "expected %s, found '%.*s'", what, shown, ps->src + t->at);
}

/* The names of the fields in field_defs[], comma-separated; only those
 * with a ":str" form if text_only. */
static void list_field_names(char *out, size_t cap, int text_only)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < FIELD_DEFS; i++) {
        if ((field_defs[i].flags & F_LITERAL) || (text_only && field_defs[i].str_op == OP_NONE))
            continue;
        if (n)
            put_str(out, cap, &n, ", ");
        put_str(out, cap, &n, field_defs[i].name);
    }
}

/* "a field name (ts, entity, ...), a "string" or a separator (# - ...)"
 * followed by " or <or_else>" if given. */
static int fail_expected_field(parser *ps, const char *or_else)
{
    char names[256], seps[2 * sizeof separators], what[512];
    list_field_names(names, sizeof names, 0);
    size_t n = 0;
    for (const char *s = separators; *s; s++) {
        char c[3] = { *s, s[1] ? ' ' : '\0', '\0' };
        put_str(seps, sizeof seps, &n, c);
    }
    snprintf(what, sizeof what, "a field name (%s), a \"string\" or a separator (%s)%s%s",
             names, seps, or_else ? " or " : "", or_else ? or_else : "");
    return fail_expected(ps, what);
}

static int expect(parser *ps, tok_kind kind, const char *what)
{
    if (ps->tok.kind != kind)
        return fail_expected(ps, what);
    lex_next(ps);
    return 0;
}

/* Appends a zeroed node; returns its index, or -1 when out of memory. */
static long push_field(parser *ps)
{
    if (ps->nfields == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 8;
        field *f = realloc(ps->fields, cap * sizeof *f);
        if (!f)
            return fail_at(ps, ps->tok.at, "out of memory");
        ps->fields = f;
        ps->cap = cap;
    }
    memset(&ps->fields[ps->nfields], 0, sizeof ps->fields[0]);
    return (long)ps->nfields++;
}

/* Appends one byte to the literal pool. */
static int push_lit(parser *ps, uint8_t b)
{
    if (ps->nlits == ps->litcap) {
        size_t cap = ps->litcap ? 2 * ps->litcap : 32;
        uint8_t *l = realloc(ps->lits, cap);
        if (!l)
            return fail_at(ps, ps->tok.at, "out of memory");
        ps->lits = l;
        ps->litcap = cap;
    }
    ps->lits[ps->nlits++] = b;
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Decodes the current T_STRING or T_SEP token into the pool at the end;
 * sets f->aux (offset) and f->width (length). Escapes are the HBase
 * shell's: \xNN (Bytes.toStringBinary), \" and \\. */
static int decode_literal(parser *ps, field *f)
{
    const token t = ps->tok;
    const char *s = ps->src;
    f->aux = (uint32_t)ps->nlits;
    if (t.kind == T_SEP)
        return push_lit(ps, (uint8_t)s[t.at]);
    if (t.kind == T_OPEN_STRING)
        return fail_at(ps, t.at, "expected '\"' to close the string that starts here, found end of input");
    for (size_t i = t.at + 1; i + 1 < t.at + t.len; i++) {
        uint8_t b = (uint8_t)s[i];
        if (b == '\\') {
            int hi = s[i + 1] == 'x' ? hex_digit(s[i + 2]) : -1;
            int lo = hi >= 0 ? hex_digit(s[i + 3]) : -1;
            if (s[i + 1] == '"' || s[i + 1] == '\\') {
                b = (uint8_t)s[++i];
            } else if (lo >= 0 && i + 3 < t.at + t.len - 1) {
                b = (uint8_t)(hi << 4 | lo);
                i += 3;
            } else {
                size_t close = t.at + t.len - 1, shown = close - i < 4 ? close - i : 4;
                return fail_at(ps, i, "expected \\xNN (two hex digits), \\\" or \\\\ in a string, "
                               "found '%.*s'", (int)shown, s + i);
            }
        }
        if (push_lit(ps, b) < 0)
            return -1;
    }
    return 0;
}

static int parse_field(parser *ps, unsigned depth, const char *or_else);

/* fields until `stop` (T_END or T_RPAREN), at least one. A field whose
 * value depends on the fields after it (psalt, osalt) holds them as its
 * inner fields when compiled: they are one level deeper. */
static int parse_list(parser *ps, unsigned depth, tok_kind stop, const char *or_else)
{
    const char *want = NULL;
    do {
        size_t at = ps->nfields;
        if (parse_field(ps, depth, want) < 0)
            return -1;
        if (ps->fields[at].def->flags & F_COVERS_REST)
            depth++;
        want = or_else;
    } while (ps->tok.kind != stop);
    return 0;
}

static int parse_number_arg(parser *ps, size_t self, arg_kind a)
{
    uint32_t lo = 0, hi = 0;
    const char *what = "";
    int numeric = number_arg(a, &lo, &hi, &what);
    assert(numeric);
    (void)numeric;
    if (ps->tok.kind != T_NUMBER || ps->tok.num < lo || ps->tok.num > hi)
        return fail_expected(ps, what);
    ps->fields[self].arg_col = (uint32_t)ps->tok.at;
    set_number(&ps->fields[self], a, (uint32_t)ps->tok.num);
    lex_next(ps);
    return 0;
}

/* Parses one argument of kind a into node `self` (or its subtree). */
static int parse_arg(parser *ps, size_t self, arg_kind a, unsigned depth)
{
    switch (a) {
    case ARG_BUCKETS:
    case ARG_PHOENIX_BUCKETS:
    case ARG_UID_WIDTH:
    case ARG_TAG_COUNT:
        return parse_number_arg(ps, self, a);
    case ARG_UID_KIND:
        for (size_t i = 0; i < UID_KINDS; i++) {
            if (tok_is_word(ps, uid_kinds[i].name)) {
                ps->fields[self].table = uid_kinds[i].kind;
                lex_next(ps);
                return 0;
            }
        }
        return fail_expected(ps, "a name kind ('metric', 'host' or 'entity')");
    case ARG_TS:
        if (!tok_is_word(ps, "ts"))
            return fail_expected(ps, "'ts'");
        lex_next(ps);
        return 0;
    case ARG_FIELD:
        return parse_field(ps, depth + 1, NULL);
    case ARG_FIELDS:
        return parse_list(ps, depth + 1, T_RPAREN, "')'");
    case ARG_NONE:
        break;
    }
    assert(!"no such argument kind");
    return -1;
}

/* "(" arg { "," arg } ")" */
static int parse_args(parser *ps, size_t self, unsigned depth)
{
    const field_def *def = ps->fields[self].def;
    char what[80];
    snprintf(what, sizeof what, "'(' after %s", def->name);
    if (expect(ps, T_LPAREN, what) < 0)
        return -1;
    size_t a = 0;
    for (; a < KS_MAX_ARGS && def->args[a] != ARG_NONE; a++) {
        if (a > 0) {
            snprintf(what, sizeof what, "',' after %s", arg_noun(def->args[a - 1]));
            if (expect(ps, T_COMMA, what) < 0)
                return -1;
        }
        if (parse_arg(ps, self, def->args[a], depth) < 0)
            return -1;
    }
    snprintf(what, sizeof what, "')' after %s", arg_noun(def->args[a - 1]));
    return expect(ps, T_RPAREN, what);
}

static int parse_slice_number(parser *ps, uint32_t lo, uint32_t hi, const char *noun, uint32_t *out)
{
    if (ps->tok.kind != T_NUMBER || ps->tok.num < lo || ps->tok.num > hi) {
        char what[80];
        snprintf(what, sizeof what, "a slice %s %" PRIu32 "..%" PRIu32, noun, lo, hi);
        return fail_expected(ps, what);
    }
    *out = (uint32_t)ps->tok.num;
    lex_next(ps);
    return 0;
}

/* "[" start ":" end "]": bytes start .. end-1 of the 16, start < end. */
static int parse_slice(parser *ps, field *f)
{
    lex_next(ps); /* '[' */
    if (parse_slice_number(ps, 0, KS_MD5_BYTES - 1, "start", &f->n) < 0
        || expect(ps, T_COLON, "':' after the slice start") < 0
        || parse_slice_number(ps, f->n + 1, KS_MD5_BYTES, "end", &f->aux) < 0)
        return -1;
    return expect(ps, T_RBRACKET, "']' after the slice end");
}

/* [ ":" "str" ]; the letter form of a bucket allows at most 26 buckets. */
static int parse_text_form(parser *ps, field *f)
{
    const field_def *def = f->def;
    if (ps->tok.kind != T_COLON)
        return 0;
    if (def->str_op == OP_NONE) {
        char names[256], what[400];
        list_field_names(names, sizeof names, 1);
        snprintf(what, sizeof what, "no ':str' after %s (only %s have a text form)", def->name, names);
        return fail_expected(ps, what);
    }
    lex_next(ps);
    if (!tok_is_word(ps, "str"))
        return fail_expected(ps, "'str' after ':'");
    lex_next(ps);
    f->text = 1;
    if ((def->flags & F_BUCKET_PREFIX) && f->n > KS_MAX_LETTERS)
        return fail_at(ps, f->arg_col, "expected a bucket count 1..26 for the letter form "
                       "(':str': buckets a..z), found '%" PRIu32 "'", f->n);
    return 0;
}

/* [ slice ] [ ":" "str" ], then the width they decide: an md5 writes its
 * slice (2 characters a byte in hex), a bucket's letter is 1 byte. */
static int parse_suffixes(parser *ps, field *f)
{
    const field_def *def = f->def;
    if (ps->tok.kind == T_LBRACKET) {
        if (!(def->flags & F_SLICE)) {
            char what[80];
            snprintf(what, sizeof what, "no '[' after %s (only md5 takes a byte slice)", def->name);
            return fail_expected(ps, what);
        }
        if (parse_slice(ps, f) < 0)
            return -1;
    }
    if (parse_text_form(ps, f) < 0)
        return -1;
    if (def->flags & F_SLICE)
        f->width = (f->aux - f->n) * (f->text ? 2u : 1u);
    if ((def->flags & F_BUCKET_PREFIX) && f->text)
        f->width = 1;
    return 0;
}

/* The field_def the current token starts: a name's row, the literal row
 * for a string or separator, NULL for anything else. */
static const field_def *token_def(const parser *ps)
{
    const token *t = &ps->tok;
    if (t->kind == T_STRING || t->kind == T_OPEN_STRING || t->kind == T_SEP)
        return literal_def();
    return t->kind == T_NAME ? field_def_find(ps->src + t->at, t->len) : NULL;
}

/* field = name [ "(" args ")" ] [ slice ] [ ":" "str" ] | literal. `or_else`
 * names what else could stand where this field was expected. */
static int parse_field(parser *ps, unsigned depth, const char *or_else)
{
    const token name = ps->tok;
    const field_def *def = token_def(ps);
    if (!def)
        return fail_expected_field(ps, or_else);
    if (depth >= KS_MAX_DEPTH)
        return fail_at(ps, name.at, "expected at most %d nested fields, found '%s' nested deeper",
                       KS_MAX_DEPTH, def->name);
    long self = push_field(ps);
    if (self < 0)
        return -1;
    field *f = &ps->fields[self];
    f->def = def;
    f->col = (uint32_t)name.at + 1;
    if (def->flags & F_LITERAL) {
        if (decode_literal(ps, f) < 0)
            return -1;
        f->width = (uint32_t)(ps->nlits - f->aux);
    }
    if (def->flags & F_SLICE) {
        f->n = 0;
        f->aux = KS_MD5_BYTES;
    }
    lex_next(ps);

    if ((def->flags & F_OPTIONAL_ARGS) && ps->tok.kind != T_LPAREN)
        set_number(f, def->args[0], 1);
    else if (def->args[0] != ARG_NONE && parse_args(ps, (size_t)self, depth) < 0)
        return -1;
    f = &ps->fields[self]; /* inner fields may have moved the array */
    if (parse_suffixes(ps, f) < 0)
        return -1;
    f->span = (uint32_t)(ps->nfields - (size_t)self);
    return 0;
}

static int parse_scheme(parser *ps)
{
    lex_next(ps);
    return parse_list(ps, 0, T_END, "end of input");
}

/* ------------------------------------------------------------------------
 * Measuring, printing and compiling the field tree.
 * ---------------------------------------------------------------------- */

/* Bytes a field writes itself (inner fields not counted). */
static size_t field_own_len(const field *f)
{
    size_t len = f->text ? f->def->str_len : f->def->len;
    return len ? len : f->width;
}

static void measure_field(const field *fs, size_t i, size_t *len, size_t *peak);

/* Length and peak of the sibling fields [i, end), written one after another. */
static void measure_seq(const field *fs, size_t i, size_t end, size_t *len, size_t *peak)
{
    *len = *peak = 0;
    for (; i < end; i += fs[i].span) {
        size_t l, p;
        measure_field(fs, i, &l, &p);
        if (*len + p > *peak)
            *peak = *len + p;
        *len += l;
    }
}

/* A field first writes its own bytes (a transform reserves them), then its
 * inner fields after them; it keeps the inner bytes or discards them. (A
 * field that covers the rest of its list keeps those bytes, which are its
 * siblings here, measured as such.) */
static void measure_field(const field *fs, size_t i, size_t *len, size_t *peak)
{
    const field *f = &fs[i];
    size_t own = field_own_len(f), inner_len, inner_peak;
    measure_seq(fs, i + 1, i + f->span, &inner_len, &inner_peak);
    *len = own + ((f->def->flags & F_KEEPS_INNER) ? inner_len : 0);
    *peak = own + inner_peak;
}

static void render_seq(const field *fs, const uint8_t *lits, size_t i, size_t end,
                       char *out, size_t cap, size_t *n);

static void render_number(uint32_t v, char *out, size_t cap, size_t *n)
{
    char num[16];
    snprintf(num, sizeof num, "%" PRIu32, v);
    put_str(out, cap, n, num);
}

static void render_arg(const field *fs, const uint8_t *lits, size_t i, arg_kind a,
                       char *out, size_t cap, size_t *n)
{
    switch (a) {
    case ARG_BUCKETS:
    case ARG_PHOENIX_BUCKETS:
    case ARG_TAG_COUNT:
        render_number(fs[i].n, out, cap, n);
        break;
    case ARG_UID_WIDTH:
        render_number(fs[i].width, out, cap, n);
        break;
    case ARG_UID_KIND:
        for (size_t k = 0; k < UID_KINDS; k++)
            if (uid_kinds[k].kind == fs[i].table)
                put_str(out, cap, n, uid_kinds[k].name);
        break;
    case ARG_TS:
        put_str(out, cap, n, "ts");
        break;
    case ARG_FIELD:
    case ARG_FIELDS:
        render_seq(fs, lits, i + 1, i + fs[i].span, out, cap, n);
        break;
    case ARG_NONE:
        break;
    }
}

/* A one-byte separator bare; anything else quoted, escaped as the HBase
 * shell reads it: \" and \\, and \xNN for what Bytes.toStringBinary
 * escapes (bytes outside ' '..'~'). */
static void render_literal(const uint8_t *b, size_t len, char *out, size_t cap, size_t *n)
{
    static const char hex[] = "0123456789ABCDEF";
    if (len == 1 && is_separator(b[0])) {
        char c[2] = { (char)b[0], '\0' };
        put_str(out, cap, n, c);
        return;
    }
    put_str(out, cap, n, "\"");
    for (size_t i = 0; i < len; i++) {
        char esc[5] = { '\\', (char)b[i], '\0', '\0', '\0' };
        if (b[i] < ' ' || b[i] > '~') {
            esc[1] = 'x';
            esc[2] = hex[b[i] >> 4];
            esc[3] = hex[b[i] & 15];
        }
        put_str(out, cap, n, b[i] == '"' || b[i] == '\\' || b[i] < ' ' || b[i] > '~' ? esc : esc + 1);
    }
    put_str(out, cap, n, "\"");
}

static void render_field(const field *fs, const uint8_t *lits, size_t i, char *out, size_t cap, size_t *n)
{
    const field *f = &fs[i];
    const field_def *d = f->def;
    if (d->flags & F_LITERAL) {
        render_literal(lits + f->aux, f->width, out, cap, n);
        return;
    }
    put_str(out, cap, n, d->name);
    int omit = (d->flags & F_OPTIONAL_ARGS) && f->n == 1;
    if (d->args[0] != ARG_NONE && !omit) {
        put_str(out, cap, n, "(");
        for (size_t a = 0; a < KS_MAX_ARGS && d->args[a] != ARG_NONE; a++) {
            if (a)
                put_str(out, cap, n, ", ");
            render_arg(fs, lits, i, d->args[a], out, cap, n);
        }
        put_str(out, cap, n, ")");
    }
    if ((d->flags & F_SLICE) && (f->n != 0 || f->aux != KS_MD5_BYTES)) {
        put_str(out, cap, n, "[");
        render_number(f->n, out, cap, n);
        put_str(out, cap, n, ":");
        render_number(f->aux, out, cap, n);
        put_str(out, cap, n, "]");
    }
    if (f->text)
        put_str(out, cap, n, ":str");
}

static void render_seq(const field *fs, const uint8_t *lits, size_t i, size_t end,
                       char *out, size_t cap, size_t *n)
{
    for (size_t first = i; i < end; i += fs[i].span) {
        if (i != first)
            put_str(out, cap, n, " ");
        render_field(fs, lits, i, out, cap, n);
    }
}

typedef struct compiler {
    const field *fs;
    op *ops;
    size_t n;
    uint32_t nskips;  /* skip slots handed out */
} compiler;

/* The op `code` of field f at nesting depth `depth`, as compiled. */
static op op_of(const field *f, uint8_t code, unsigned depth)
{
    assert(depth < KS_MAX_DEPTH);
    op o = { code, (uint8_t)depth, f->table, f->text, f->width, f->n, f->aux, 0 };
    return o;
}

static void emit(compiler *c, const field *f, uint8_t code, unsigned depth)
{
    c->ops[c->n++] = op_of(f, code, depth);
}

static void compile_seq(compiler *c, size_t i, size_t end, unsigned depth, int skipping);

/* A field's own op; a transform's inner fields and END op after it. */
static void compile_field(compiler *c, size_t i, unsigned depth)
{
    const field *f = &c->fs[i];
    const field_def *d = f->def;
    emit(c, f, f->text ? d->str_op : d->op, depth);
    if (d->end_op != OP_NONE && !(d->flags & F_COVERS_REST)) {
        compile_seq(c, i + 1, i + f->span, depth + 1, 0);
        emit(c, f, d->end_op, depth);
    }
}

/* The sibling fields [i, end). A field that covers the rest takes the
 * siblings after it as its inner fields. `skipping`: an osalt earlier in
 * this list is open, so each time field here gets a skip slot whose SKIP
 * ops record where its bytes are. */
static void compile_seq(compiler *c, size_t i, size_t end, unsigned depth, int skipping)
{
    for (; i < end; i += c->fs[i].span) {
        const field *f = &c->fs[i];
        uint32_t flags = f->def->flags;
        if (flags & F_COVERS_REST) {
            uint32_t first_skip = c->nskips;
            compile_field(c, i, depth);
            compile_seq(c, i + f->span, end, depth + 1, skipping || (flags & F_SKIPS_TIME));
            emit(c, f, f->def->end_op, depth);
            if (flags & F_SKIPS_TIME) {
                c->ops[c->n - 1].a = first_skip;
                c->ops[c->n - 1].b = c->nskips;
            }
            return;
        }
        int timed = skipping && (flags & F_TIME);
        if (timed) {
            emit(c, f, OP_SKIP_BEGIN, depth);
            c->ops[c->n - 1].a = c->nskips;
        }
        compile_field(c, i, depth);
        if (timed) {
            emit(c, f, OP_SKIP_END, depth);
            c->ops[c->n - 1].a = c->nskips++;
        }
    }
}

/* ------------------------------------------------------------------------
 * Public: parse, inspect, presets.
 * ---------------------------------------------------------------------- */

static void parser_release(parser *ps)
{
    free(ps->fields);
    free(ps->lits);
}

/* The parsed tree must give keys of 1 .. KEYSCHEME_MAX_KEY bytes. */
static int check_lengths(parser *ps, size_t len, size_t peak)
{
    if (peak > KEYSCHEME_MAX_KEY)
        return fail_at(ps, 0, "expected a key of at most %d bytes (KEYSCHEME_MAX_KEY), "
                       "found one of up to %zu bytes", KEYSCHEME_MAX_KEY, peak);
    if (len == 0)
        return fail_at(ps, 0, "expected a key of at least 1 byte, found one that is always empty");
    return 0;
}

int keyscheme_parse(const char *expr, keyscheme **out, char *err, size_t errcap)
{
    assert(expr && out);
    *out = NULL;
    if (err && errcap)
        err[0] = '\0';
    parser ps = { .src = expr, .err = err, .errcap = errcap };
    size_t len = 0, peak = 0;
    if (parse_scheme(&ps) == 0)
        measure_seq(ps.fields, 0, ps.nfields, &len, &peak);
    if (ps.failed || check_lengths(&ps, len, peak) < 0) {
        parser_release(&ps);
        return -1;
    }

    keyscheme *ks = calloc(1, sizeof *ks);
    size_t expr_len = 0;
    render_seq(ps.fields, ps.lits, 0, ps.nfields, NULL, 0, &expr_len);
    if (ks) {
        ks->fields = ps.fields;
        ks->nfields = ps.nfields;
        ks->lits = ps.lits;
        ks->max_len = len;
        ks->peak = peak;
        /* at most: a field's op and END op, and two SKIP ops */
        ks->ops = malloc(4 * ps.nfields * sizeof *ks->ops);
        ks->expr = malloc(expr_len + 1);
    }
    if (!ks || !ks->ops || !ks->expr) {
        fail_at(&ps, 0, "out of memory");
        if (ks)
            keyscheme_free(ks);
        else
            parser_release(&ps);
        return -1;
    }
    size_t n = 0;
    render_seq(ks->fields, ks->lits, 0, ks->nfields, ks->expr, expr_len + 1, &n);
    compiler c = { ks->fields, ks->ops, 0, 0 };
    compile_seq(&c, 0, ks->nfields, 0, 0);
    ks->nops = c.n;
    ks->nskips = c.nskips;
    assert(n == expr_len && ks->nops <= 4 * ks->nfields);
    assert(ks->max_len >= 1 && ks->max_len <= ks->peak);
    *out = ks;
    return 0;
}

void keyscheme_free(keyscheme *ks)
{
    if (!ks)
        return;
    free(ks->fields);
    free(ks->lits);
    free(ks->ops);
    free(ks->expr);
    free(ks);
}

const char *keyscheme_expr(const keyscheme *ks)
{
    return ks->expr;
}

size_t keyscheme_max_len(const keyscheme *ks)
{
    return ks->max_len;
}

uint32_t keyscheme_buckets(const keyscheme *ks, size_t *width)
{
    const field *first = &ks->fields[0];
    if (!(first->def->flags & F_BUCKET_PREFIX))
        return 0;
    if (width)
        *width = first->width;
    return first->n;
}

/* Writes v as `width` big-endian bytes (the low bytes of v). */
static void put_be(uint8_t *out, uint64_t v, unsigned width)
{
    for (unsigned i = width; i-- > 0; v >>= 8)
        out[i] = (uint8_t)v;
}

/* Bucket b as a bucket field writes it: the letter 'a' + b in the text
 * form (the HBase Reference Guide's a-foo0003 example), else big-endian
 * in the field's width. */
static void put_bucket(uint8_t *out, uint32_t b, int text, unsigned width)
{
    if (text)
        out[0] = (uint8_t)('a' + b);
    else
        put_be(out, b, width);
}

size_t keyscheme_bucket_prefix(const keyscheme *ks, uint32_t b, uint8_t *out)
{
    size_t width = 0;
    uint32_t n = keyscheme_buckets(ks, &width);
    assert(n > 0 && b < n);
    (void)n;
    put_bucket(out, b, ks->fields[0].text, (unsigned)width);
    return width;
}

/* "{N}" stands for the bucket count. */
#define PRESET_N "{N}"
static const struct preset {
    const char *name;
    const char *expr;
} presets[] = {
    { "monotonic",       "ts" },
    { "salted",          "salt(" PRESET_N ") ts" },
    { "hashed",          "hash(" PRESET_N ", ts) ts" },
    { "reversed",        "reverse(ts)" },
    { "promoted",        "entity ts" },
    { "revts",           "entity revts" },
    { "md5",             "md5(ts)" },
    { "opentsdb",        "uid(metric, 3) hour(ts) tags" },
    { "opentsdb-salted", "osalt(" PRESET_N ") uid(metric, 3) hour(ts) tags" },
    { "revdomain",       "revdomain(entity:str) ts" },
    { "seq",             "seq" },
    { "seq-reversed",    "reverse(seq:str)" },
};
#define PRESETS (sizeof presets / sizeof presets[0])

size_t keyscheme_preset_count(void)
{
    return PRESETS;
}

const char *keyscheme_preset_name(size_t i)
{
    return i < PRESETS ? presets[i].name : NULL;
}

/* Also returns -1 when the expression does not fit in cap. A bucket count
 * outside 1..65536 is written as given: keyscheme_parse then reports it. */
int keyscheme_preset_expr(const char *name, uint32_t buckets, char *out, size_t cap)
{
    for (size_t i = 0; i < PRESETS; i++) {
        if (strcmp(presets[i].name, name) != 0)
            continue;
        char num[16];
        snprintf(num, sizeof num, "%" PRIu32, buckets);
        size_t n = 0;
        if (cap)
            out[0] = '\0';
        for (const char *s = presets[i].expr; *s; s++) {
            char c[2] = { *s, '\0' };
            int is_n = strncmp(s, PRESET_N, strlen(PRESET_N)) == 0;
            put_str(out, cap, &n, is_n ? num : c);
            if (is_n)
                s += strlen(PRESET_N) - 1;
        }
        return n < cap ? 0 : -1;
    }
    return -1;
}

/* ------------------------------------------------------------------------
 * Encoding.
 * ---------------------------------------------------------------------- */

typedef struct uid_table {
    uint32_t *uid_of;  /* uid_of[name id]: its UID, 0 = none assigned yet */
    size_t cap;
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

keyencoder *keyencoder_new(const keyscheme *ks, uint64_t seed)
{
    keyencoder *ke = calloc(1, sizeof *ke);
    if (!ke)
        return NULL;
    if ((ks->nskips && !(ke->skip = malloc(2 * ks->nskips * sizeof *ke->skip))) ||
        !(ke->scratch = malloc(ks->peak ? ks->peak : 1))) {
        free(ke->skip);
        free(ke);
        return NULL;
    }
    ke->ks = ks;
    rng_seed(&ke->rng, seed);
    return ke;
}

void keyencoder_free(keyencoder *ke)
{
    if (!ke)
        return;
    for (int t = 0; t < NAME_KINDS; t++)
        free(ke->names[t].uid_of);
    free(ke->skip);
    free(ke->scratch);
    free(ke);
}

/* The cold path of uid_get: a name seen for the first time. OpenTSDB
 * (src/uid/UniqueId.java, getOrCreateId) assigns by an atomic increment of
 * a counter that starts at 0, so UIDs are 1, 2, 3... in order of first use.
 * Out of memory here has no way back to the caller, so it aborts. */
static uint32_t uid_assign(keyencoder *ke, unsigned kind, uint32_t id)
{
    uid_table *t = &ke->names[kind];
    if (id >= t->cap) {
        size_t cap = t->cap ? t->cap : 64;
        while (cap <= id)
            cap *= 2;
        uint32_t *grown = realloc(t->uid_of, cap * sizeof *grown);
        if (!grown) {
            fputs("regionsim: out of memory growing a UID table\n", stderr);
            abort();
        }
        memset(grown + t->cap, 0, (cap - t->cap) * sizeof *grown);
        t->uid_of = grown;
        t->cap = cap;
    }
    uint32_t *last = &ke->last[space_of[kind]];
    assert(t->uid_of[id] == 0 && *last < UINT32_MAX);
    return t->uid_of[id] = ++*last;
}

/* The UID of name `id` of a kind, 0 if none is assigned yet. Never assigns. */
static uint32_t uid_find(const keyencoder *ke, unsigned kind, uint32_t id)
{
    const uid_table *t = &ke->names[kind];
    return id < t->cap ? t->uid_of[id] : 0;
}

static uint32_t uid_get(keyencoder *ke, unsigned kind, uint32_t id)
{
    uint32_t uid = uid_find(ke, kind, id);
    return uid ? uid : uid_assign(ke, kind, id);
}

/* The name id a UID table is keyed by, for this record. */
static uint32_t uid_name_id(const record *rec, unsigned kind)
{
    switch ((name_kind)kind) {
    case NAME_METRIC: return rec->metric;
    case NAME_HOST:   return rec->host;
    case NAME_TAGVAL: return rec->tag;
    case NAME_ENTITY: return rec->entity;
    case NAME_TAGK:
    case NAME_KINDS:  break;
    }
    return TAGK_HOST;
}

/* OpenTSDB's tag pairs (src/core/IncomingDataPoints.java rowKeyTemplate,
 * src/core/Tags.java resolveAll): [tagk UID][tagv UID] per tag, 3 bytes
 * each, sorted by tagk UID. Tag 1 is host=<host name>; tag 2 is
 * tag1=t<tag>. On the first record host's tagk is assigned before tag1's,
 * so host's UID is always the smaller: this order is OpenTSDB's. */
static const struct tag_def {
    uint8_t tagk;     /* the tag key's name id (a NAME_TAGK) */
    uint8_t values;   /* the name_kind of its values */
} tag_defs[KS_MAX_TAGS] = { { TAGK_HOST, NAME_HOST }, { TAGK_TAG1, NAME_TAGVAL } };

static size_t put_tags(keyencoder *ke, const record *rec, uint32_t count, uint8_t *out)
{
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        const struct tag_def *t = &tag_defs[i];
        put_be(out + p, uid_get(ke, NAME_TAGK, t->tagk), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
        put_be(out + p, uid_get(ke, t->values, uid_name_id(rec, t->values)), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
    }
    return p;
}

/* Java's Arrays.hashCode(byte[]), which is also Apache Phoenix's
 * SaltingUtil.calculateHashCode: result = 31 * result + b for each byte,
 * b a signed Java byte, in int arithmetic wrapping modulo 2^32 (done here
 * in uint32_t, where wrapping is defined). Streams: hash a byte string in
 * pieces by passing the last result on; start from 1. */
static uint32_t java_hash(uint32_t h, const uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = 31u * h + ((uint32_t)bytes[i] - ((bytes[i] & 0x80u) ? 0x100u : 0u));
    return h;
}

/* The bucket of Java hash h among n, as both Phoenix and OpenTSDB make it:
 *  - Phoenix, SaltingUtil.getSaltingByte (apache/phoenix master,
 *    phoenix-core/src/main/java/org/apache/phoenix/schema/SaltingUtil.java):
 *        (byte) Math.abs(hash % bucketNum)
 *  - OpenTSDB 2.2+, RowKey.prefixKeyWithSalt (src/core/RowKey.java):
 *        modulo = Arrays.hashCode(salt_base) % SALT_BUCKETS;
 *        if (modulo < 0) modulo = modulo * -1;
 * Java's % truncates, so both are |h| mod n, for every h including
 * Integer.MIN_VALUE: -2^31 % n = -(2^31 mod n), whose negation is in
 * range. Here |h| is taken as a uint32_t, where |-2^31| = 2^31 fits: the
 * same value. (Older Phoenix computed Math.abs(hash) % bucketNum, which
 * for MIN_VALUE gave a negative byte; the current formula does not.) */
static uint32_t java_bucket(uint32_t h, uint32_t n)
{
    uint32_t magnitude = (h & 0x80000000u) ? 0u - h : h;
    return magnitude % n;
}

/* osalt/psalt: the Java hash of the bytes [from, to), leaving out skip
 * slots [a, b) (osalt's time fields, each inside the range, in order). */
static uint32_t rest_hash(const keyencoder *ke, const uint8_t *k, size_t from, size_t to,
                          uint32_t a, uint32_t b)
{
    uint32_t h = 1;
    for (uint32_t s = a; s < b; s++) {
        h = java_hash(h, k + from, ke->skip[2 * s] - from);
        from = ke->skip[2 * s + 1];
    }
    return java_hash(h, k + from, to - from);
}

/* md5(): the digest of [from, to), its slice [start, end) written at out,
 * as bytes or as lowercase hex (2 characters a byte). RFC 1321 via libmd. */
static void put_md5(uint8_t *out, const uint8_t *in, size_t len, const op *o)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[MD5_DIGEST_LENGTH];
    MD5_CTX ctx;
    MD5Init(&ctx);
    MD5Update(&ctx, in, len);
    MD5Final(digest, &ctx);
    for (uint32_t i = o->n, j = 0; i < o->a; i++) {
        if (o->text) {
            out[j++] = (uint8_t)hex[digest[i] >> 4];
            out[j++] = (uint8_t)hex[digest[i] & 15];
        } else {
            out[j++] = digest[i];
        }
    }
}

/* v in decimal, zero-padded to at least min_digits; returns the length. */
static size_t put_dec(uint8_t *out, uint64_t v, size_t min_digits)
{
    uint8_t tmp[KS_U64_DIGITS];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < min_digits)
        tmp[n++] = '0';
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

/* The HBase Reference Guide's reverse timestamp, Long.MAX_VALUE - ts. A ts
 * above Long.MAX_VALUE (no Java timestamp is) gives 0. */
static uint64_t reverse_ts(uint64_t ts_ms)
{
    return ts_ms > KS_INT64_MAX ? 0 : KS_INT64_MAX - ts_ms;
}

/* The entity's name (record_name), cut at KEYSCHEME_MAX_NAME bytes. A
 * trace key's name is its shell form, written straight into out; every
 * other name fits a small buffer (no large stack frame on the hot path). */
static size_t put_name(uint8_t *out, const record *rec)
{
    if (rec->naming == NAMING_KEY)
        return key_format_bytes(keyref_of(rec->key, rec->key_len), (char *)out,
                                KEYSCHEME_MAX_NAME);
    char buf[RECORD_NAME_MAX + 1];
    size_t n = record_name(rec, buf, sizeof buf);
    assert(n <= RECORD_NAME_MAX);
    memcpy(out, buf, n);
    return n;
}

/* The record's key as given, else its entity's name; at most
 * KEYSCHEME_MAX_NAME bytes. */
static size_t put_key(uint8_t *out, const record *rec)
{
    if (!rec->key)
        return put_name(out, rec);
    size_t n = rec->key_len < KEYSCHEME_MAX_NAME ? rec->key_len : KEYSCHEME_MAX_NAME;
    memcpy(out, rec->key, n);
    return n;
}

static void reverse_bytes(uint8_t *b, size_t len)
{
    for (size_t i = 0, j = len; i + 1 < j; i++, j--) {
        uint8_t t = b[i];
        b[i] = b[j - 1];
        b[j - 1] = t;
    }
}

/* www.example.com -> com.example.www, in place: reverse it all, then each
 * dot-separated component back. */
static void reverse_domain(uint8_t *b, size_t len)
{
    reverse_bytes(b, len);
    for (size_t start = 0, i = 0; i <= len; i++) {
        if (i == len || b[i] == '.') {
            reverse_bytes(b + start, i - start);
            start = i + 1;
        }
    }
}

/* The writers of the ops that read the record and nothing else (no RNG,
 * no UID table, no inner fields): each writes at out and returns the
 * length. The encoder's switch calls them directly; the planner reaches
 * them through put_value. */
static size_t put_ts(const record *rec, uint8_t *out)
{
    put_be(out, rec->ts_ms, 8);
    return 8;
}

static size_t put_ts_str(const record *rec, uint8_t *out)
{
    return put_dec(out, rec->ts_ms, KS_TS_STR_DIGITS);
}

static size_t put_revts(const record *rec, uint8_t *out)
{
    put_be(out, reverse_ts(rec->ts_ms), 8);
    return 8;
}

static size_t put_revts_str(const record *rec, uint8_t *out)
{
    return put_dec(out, reverse_ts(rec->ts_ms), KS_REVTS_DIGITS);
}

static size_t put_entity(const record *rec, uint8_t *out)
{
    put_be(out, rec->entity, 4);
    return 4;
}

static size_t put_seq(const record *rec, uint8_t *out)
{
    put_be(out, rec->seq, 8);
    return 8;
}

static size_t put_seq_str(const record *rec, uint8_t *out)
{
    return put_dec(out, rec->seq, KS_U64_DIGITS);
}

static size_t put_literal(const keyscheme *ks, const op *o, uint8_t *out)
{
    if (o->width) /* "" has no bytes, and maybe no pool */
        memcpy(out, ks->lits + o->a, o->width);
    return o->width;
}

/* OpenTSDB's base time: seconds rounded down to the hour, 4 bytes. */
static size_t put_hour(const record *rec, uint8_t *out)
{
    uint64_t s = rec->ts_ms / 1000;
    put_be(out, s - s % OPENTSDB_MAX_TIMESPAN, OPENTSDB_TIMESTAMP_BYTES);
    return OPENTSDB_TIMESTAMP_BYTES;
}

/* The END ops of transforms, their BEGIN at `at` and their inner bytes
 * ending at p; each returns the new end of the key. hash() and md5()
 * replace the inner bytes by the output reserved at `at`; reverse() and
 * revdomain() rearrange them in place. */
static size_t end_hash(const op *o, uint8_t *k, size_t at, size_t p)
{
    size_t in = at + o->width;
    put_bucket(k + at, java_bucket(java_hash(1, k + in, p - in), o->n), o->text, o->width);
    return in;
}

static size_t end_md5(const op *o, uint8_t *k, size_t at, size_t p)
{
    size_t in = at + o->width;
    put_md5(k + at, k + in, p - in, o);
    return in;
}

static size_t end_reverse(uint8_t *k, size_t at, size_t p)
{
    reverse_bytes(k + at, p - at);
    return p;
}

static size_t end_revdomain(uint8_t *k, size_t at, size_t p)
{
    reverse_domain(k + at, p - at);
    return p;
}

size_t keyencoder_encode(keyencoder *ke, const record *rec, uint8_t *out, size_t cap)
{
    const keyscheme *ks = ke->ks;
    assert(cap >= ks->max_len);
    uint8_t *k = cap >= ks->peak ? out : ke->scratch;
    size_t *mark = ke->mark;
    size_t p = 0;

    for (const op *o = ks->ops, *end = ks->ops + ks->nops; o < end; o++) {
        switch ((op_code)o->code) {
        case OP_TS:
            p += put_ts(rec, k + p);
            break;
        case OP_TS_STR:
            p += put_ts_str(rec, k + p);
            break;
        case OP_REVTS:
            p += put_revts(rec, k + p);
            break;
        case OP_REVTS_STR:
            p += put_revts_str(rec, k + p);
            break;
        case OP_ENTITY:
            p += put_entity(rec, k + p);
            break;
        case OP_NAME:
            p += put_name(k + p, rec);
            break;
        case OP_KEY:
            p += put_key(k + p, rec);
            break;
        case OP_SEQ:
            p += put_seq(rec, k + p);
            break;
        case OP_SEQ_STR:
            p += put_seq_str(rec, k + p);
            break;
        case OP_LITERAL:
            p += put_literal(ks, o, k + p);
            break;
        case OP_SALT:
            put_bucket(k + p, (uint32_t)rng_below(&ke->rng, o->n), o->text, o->width);
            p += o->width;
            break;
        case OP_MARK:
            mark[o->slot] = p;
            break;
        case OP_RESERVE:
            mark[o->slot] = p;
            p += o->width; /* the output goes here; inner bytes follow */
            break;
        case OP_HASH_END:
            p = end_hash(o, k, mark[o->slot], p);
            break;
        case OP_MD5_END:
            p = end_md5(o, k, mark[o->slot], p);
            break;
        case OP_REVERSE_END:
            p = end_reverse(k, mark[o->slot], p);
            break;
        case OP_REVDOMAIN_END:
            p = end_revdomain(k, mark[o->slot], p);
            break;
        case OP_REST_END: {
            size_t at = mark[o->slot];
            uint32_t h = rest_hash(ke, k, at + o->width, p, o->a, o->b);
            put_bucket(k + at, java_bucket(h, o->n), o->text, o->width);
            break;
        }
        case OP_SKIP_BEGIN:
            ke->skip[2 * o->a] = p;
            break;
        case OP_SKIP_END:
            ke->skip[2 * o->a + 1] = p;
            break;
        case OP_UID:
            put_be(k + p, uid_get(ke, o->table, uid_name_id(rec, o->table)), o->width);
            p += o->width;
            break;
        case OP_HOUR:
            p += put_hour(rec, k + p);
            break;
        case OP_TAGS:
            p += put_tags(ke, rec, o->n, k + p);
            break;
        case OP_NONE:
            assert(!"OP_NONE compiled");
            break;
        }
        assert(p <= ks->peak);
    }
    assert(p <= ks->max_len);
    if (k != out)
        memcpy(out, k, p);
    return p;
}

/* ------------------------------------------------------------------------
 * Planning reads.
 *
 * A query knows some of the values a key is made of: a GET all of them
 * (but not the RNG behind salt()), a RANGE or LATEST the entity, a WINDOW
 * none. Those bits use the field flags that say what a field reads, so a
 * field's bytes are known when its flags ask for nothing the query lacks.
 * The top-level fields are walked left to right building a template, the
 * bytes every candidate prefix shares, plus bucket slots: positions in the
 * template where a bucket the query cannot know takes each of its N
 * values. Candidate c fills the slots with the digits of c (the first slot
 * most significant), so candidates come out in key order.
 * ---------------------------------------------------------------------- */

#define PLAN_KNOWABLE (F_TIME | F_READS_SEQ | F_READS_ENTITY)
#define PLAN_MAX_CANDIDATES 65536u
#define PLAN_MAX_SLOTS 16         /* slots of N >= 2 each: 2^16 candidates */
#define PLAN_MAX_TIME 32          /* bytes of one time field: ts:str, at most 20 */

typedef struct planner {
    const keyscheme *ks;
    const keyencoder *ke;
    record rec;       /* the values the query gives; ts_ms set per time bound */
    uint16_t knows;   /* PLAN_KNOWABLE bits: which values of rec are given */
    uint8_t *k;       /* the working key, ks->peak bytes */
} planner;

typedef struct bucket_slot {
    size_t at;        /* offset in the template */
    uint32_t n;       /* buckets, >= 2 */
    uint8_t width, text;
} bucket_slot;

typedef struct candidates {
    size_t len;       /* template bytes, k[0 .. len) */
    uint32_t count;   /* product of the slots' n */
    size_t nslots;
    bucket_slot slot[PLAN_MAX_SLOTS];
} candidates;

/* One range per candidate P: from P + lo_tail to P + hi_tail and then
 * either a 0 byte (the key right after it) or the first key past every
 * key that starts with P + hi_tail. */
typedef struct range_shape {
    const uint8_t *lo_tail, *hi_tail;
    size_t lo_tail_len, hi_tail_len;
    uint8_t hi_key_successor;   /* 1: + "\x00"; 0: successor of the prefix */
    uint8_t reverse;
    uint32_t limit;
} range_shape;

void plan_init(plan *p)
{
    memset(p, 0, sizeof *p);
}

void plan_release(plan *p)
{
    free(p->ranges);
    free(p->bytes);
    plan_init(p);
}

static uint16_t query_knows(query_kind kind)
{
    switch (kind) {
    case QUERY_GET:    return PLAN_KNOWABLE;
    case QUERY_RANGE:
    case QUERY_LATEST: return F_READS_ENTITY;
    case QUERY_WINDOW:
    case QUERY_KINDS:  break;
    }
    return 0;
}

/* An empty time range, or no rows asked for. */
static int query_wants_nothing(const query *q)
{
    if (q->kind == QUERY_LATEST)
        return q->limit == 0;
    return q->kind != QUERY_GET && q->from_ms > q->to_ms;
}

/* Whether every name the scheme looks up for rec's entity has a UID. If
 * one has none, nothing of this entity was ever written: the encoder
 * assigns every UID a key needs when it writes the key. */
static int names_known(const planner *pl)
{
    const keyscheme *ks = pl->ks;
    for (size_t i = 0; i < ks->nfields; i++) {
        const field *f = &ks->fields[i];
        if (f->def->op == OP_UID && !uid_find(pl->ke, f->table, uid_name_id(&pl->rec, f->table)))
            return 0;
        for (uint32_t t = 0; f->def->op == OP_TAGS && t < f->n; t++) {
            const struct tag_def *d = &tag_defs[t];
            if (!uid_find(pl->ke, NAME_TAGK, d->tagk)
                || !uid_find(pl->ke, d->values, uid_name_id(&pl->rec, d->values)))
                return 0;
        }
    }
    return 1;
}

/* put_tags without assigning: names_known has checked every UID. */
static size_t put_found_tags(const planner *pl, uint32_t count, uint8_t *out)
{
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        const struct tag_def *t = &tag_defs[i];
        put_be(out + p, uid_find(pl->ke, NAME_TAGK, t->tagk), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
        put_be(out + p, uid_find(pl->ke, t->values, uid_name_id(&pl->rec, t->values)), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
    }
    return p;
}

/* The planner's way to the encoder's writers: the bytes of value op o. */
static size_t put_value(const keyscheme *ks, const op *o, const record *rec, uint8_t *out)
{
    switch ((op_code)o->code) {
    case OP_TS:        return put_ts(rec, out);
    case OP_TS_STR:    return put_ts_str(rec, out);
    case OP_REVTS:     return put_revts(rec, out);
    case OP_REVTS_STR: return put_revts_str(rec, out);
    case OP_ENTITY:    return put_entity(rec, out);
    case OP_NAME:      return put_name(out, rec);
    case OP_KEY:       return put_key(out, rec);
    case OP_SEQ:       return put_seq(rec, out);
    case OP_SEQ_STR:   return put_seq_str(rec, out);
    case OP_LITERAL:   return put_literal(ks, o, out);
    case OP_HOUR:      return put_hour(rec, out);
    default:           break;
    }
    assert(!"not a value op");
    return 0;
}

/* The same for the END op of a transform. */
static size_t end_transform(const op *o, uint8_t *k, size_t at, size_t p)
{
    switch ((op_code)o->code) {
    case OP_HASH_END:      return end_hash(o, k, at, p);
    case OP_MD5_END:       return end_md5(o, k, at, p);
    case OP_REVERSE_END:   return end_reverse(k, at, p);
    case OP_REVDOMAIN_END: return end_revdomain(k, at, p);
    default:               break;
    }
    assert(!"not a transform's END op");
    return p;
}

static int eval_seq(const planner *pl, size_t i, size_t end, size_t *p);

/* Writes the bytes of field i (not one that covers the rest of its list)
 * at k + *p and advances *p, as the encoder would, if the query knows
 * them; returns 0, writing nothing meaningful, if it does not. */
static int eval_field(const planner *pl, size_t i, size_t *p)
{
    const field *f = &pl->ks->fields[i];
    const field_def *d = f->def;
    assert(!(d->flags & F_COVERS_REST));
    if ((d->flags & F_RANDOM) || (d->flags & PLAN_KNOWABLE & ~pl->knows))
        return 0;
    op o = op_of(f, f->text ? d->str_op : d->op, 0);
    uint8_t *k = pl->k;
    switch ((op_code)o.code) {
    case OP_MARK:
    case OP_RESERVE: {
        size_t at = *p;
        *p += o.code == OP_RESERVE ? f->width : 0;
        if (!eval_seq(pl, i + 1, i + f->span, p))
            return 0;
        o.code = d->end_op;
        *p = end_transform(&o, k, at, *p);
        return 1;
    }
    case OP_UID:
        put_be(k + *p, uid_find(pl->ke, f->table, uid_name_id(&pl->rec, f->table)), f->width);
        *p += f->width;
        return 1;
    case OP_TAGS:
        *p += put_found_tags(pl, f->n, k + *p);
        return 1;
    default:
        *p += put_value(pl->ks, &o, &pl->rec, k + *p);
        return 1;
    }
}

/* The bucket of psalt/osalt i: the Java hash of the fields after it in
 * its list (up to `end`), osalt leaving out the time fields among them,
 * each evaluated at k + scratch. 0 if the query does not know them. */
static int rest_bucket(const planner *pl, size_t i, size_t end, size_t scratch, uint32_t *bucket)
{
    const field *fs = pl->ks->fields;
    int skip_time = (fs[i].def->flags & F_SKIPS_TIME) != 0;
    uint32_t h = 1;
    for (size_t j = i + fs[i].span; j < end; j += fs[j].span) {
        const field *g = &fs[j];
        size_t q = scratch;
        if (skip_time && (g->def->flags & F_TIME))
            continue;
        if (g->def->flags & F_COVERS_REST) {
            uint32_t inner;
            if (!rest_bucket(pl, j, end, scratch + g->width, &inner))
                return 0;
            put_bucket(pl->k + scratch, inner, g->text, g->width);
            q += g->width;
        } else if (!eval_field(pl, j, &q)) {
            return 0;
        }
        h = java_hash(h, pl->k + scratch, q - scratch);
    }
    *bucket = java_bucket(h, fs[i].n);
    return 1;
}

/* Writes the bucket of bucket field i (salt, hash, psalt, osalt) at k + p
 * if the query knows it; 0 if not. */
static int bucket_known(const planner *pl, size_t i, size_t end, size_t p)
{
    const field *f = &pl->ks->fields[i];
    if (!(f->def->flags & F_COVERS_REST))
        return eval_field(pl, i, &p);
    uint32_t b;
    if (!rest_bucket(pl, i, end, p + f->width, &b))
        return 0;
    put_bucket(pl->k + p, b, f->text, f->width);
    return 1;
}

/* The sibling fields [i, end) at k + *p, as the encoder writes them; 0 if
 * the query does not know them all. */
static int eval_seq(const planner *pl, size_t i, size_t end, size_t *p)
{
    const field *fs = pl->ks->fields;
    for (; i < end; i += fs[i].span) {
        if (fs[i].def->flags & F_COVERS_REST) {
            if (!bucket_known(pl, i, end, *p))
                return 0;
            *p += fs[i].width;
        } else if (!eval_field(pl, i, p)) {
            return 0;
        }
    }
    return 1;
}

/* Makes room for `more` bytes in p->bytes. */
static int plan_grow_bytes(plan *p, size_t more)
{
    if (p->nbytes + more <= p->bytes_cap)
        return 0;
    size_t cap = p->bytes_cap ? p->bytes_cap : 256;
    while (cap < p->nbytes + more)
        cap *= 2;
    uint8_t *b = realloc(p->bytes, cap);
    if (!b)
        return -1;
    p->bytes = b;
    p->bytes_cap = cap;
    return 0;
}

/* Appends an empty range; NULL if out of memory. */
static key_range *plan_push_range(plan *p)
{
    if (p->nranges == p->ranges_cap) {
        size_t cap = p->ranges_cap ? 2 * p->ranges_cap : 8;
        key_range *r = realloc(p->ranges, cap * sizeof *r);
        if (!r)
            return NULL;
        p->ranges = r;
        p->ranges_cap = cap;
    }
    key_range *r = &p->ranges[p->nranges++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Appends a + b to p->bytes (room made by the caller); returns the offset. */
static size_t plan_put(plan *p, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t off = p->nbytes;
    if (alen)
        memcpy(p->bytes + off, a, alen);
    if (blen)
        memcpy(p->bytes + off + alen, b, blen);
    p->nbytes += alen + blen;
    return off;
}

/* The first key after every key that starts with b[0 .. *len): the last
 * byte below 0xFF incremented, the bytes after it dropped. All 0xFF (or
 * empty): no such key, *len = 0 (unbounded). */
static void prefix_successor(uint8_t *b, size_t *len)
{
    size_t n = *len;
    while (n > 0 && b[n - 1] == 0xFF)
        n--;
    if (n > 0)
        b[n - 1]++;
    *len = n;
}

/* The range of one candidate whose bytes are prefix[0 .. len). */
static int plan_candidate_range(plan *out, const uint8_t *prefix, size_t len, const range_shape *s)
{
    if (plan_grow_bytes(out, 2 * len + s->lo_tail_len + s->hi_tail_len + 1) < 0)
        return -1;
    key_range *r = plan_push_range(out);
    if (!r)
        return -1;
    r->lo_len = len + s->lo_tail_len;
    r->lo_off = plan_put(out, prefix, len, s->lo_tail, s->lo_tail_len);
    r->hi_len = len + s->hi_tail_len;
    r->hi_off = plan_put(out, prefix, len, s->hi_tail, s->hi_tail_len);
    if (s->hi_key_successor) {
        out->bytes[out->nbytes++] = 0;
        r->hi_len++;
    } else {
        prefix_successor(out->bytes + r->hi_off, &r->hi_len);
        out->nbytes = r->hi_off + r->hi_len;
    }
    r->limit = s->limit;
    r->reverse = s->reverse;
    return 0;
}

/* Fills the slots of the template with the buckets of candidate c. */
static void set_candidate(uint8_t *k, const candidates *cs, uint32_t c)
{
    for (size_t s = cs->nslots; s-- > 0; c /= cs->slot[s].n) {
        const bucket_slot *b = &cs->slot[s];
        put_bucket(k + b->at, c % b->n, b->text, b->width);
    }
}

/* One range of shape s per candidate, in key order. */
static int plan_each_candidate(const planner *pl, const candidates *cs, const range_shape *s, plan *out)
{
    for (uint32_t c = 0; c < cs->count; c++) {
        set_candidate(pl->k, cs, c);
        if (plan_candidate_range(out, pl->k, cs->len, s) < 0)
            return -1;
    }
    return 0;
}

static int plan_full_scan(plan *out)
{
    out->full_scan = 1;
    out->exact = 0; /* every row is read; the wanted ones are filtered out */
    return plan_push_range(out) ? 0 : -1;
}

/* Bucket field f, at the end of the template in k, is unknown to the
 * query: the candidates take each of its N values. 0 if that would make
 * too many. */
static int add_slot(candidates *cs, const field *f, uint8_t *k)
{
    if (f->n == 1) { /* one bucket, always 0: known after all */
        put_bucket(k + cs->len, 0, f->text, f->width);
        return 1;
    }
    if ((uint64_t)cs->count * f->n > PLAN_MAX_CANDIDATES)
        return 0;
    assert(cs->nslots < PLAN_MAX_SLOTS);
    bucket_slot b = { cs->len, f->n, (uint8_t)f->width, f->text };
    cs->slot[cs->nslots++] = b;
    cs->count *= f->n;
    return 1;
}

/* Time field i's bytes for time t at k + at, into out; returns the length. */
static size_t time_bytes(planner *pl, size_t i, uint64_t t, size_t at, uint8_t *out)
{
    uint16_t knows = pl->knows;
    size_t p = at;
    pl->rec.ts_ms = t;
    pl->knows |= F_TIME;
    int known = eval_field(pl, i, &p);
    assert(known && p - at <= PLAN_MAX_TIME);
    (void)known;
    pl->knows = knows;
    memcpy(out, pl->k + at, p - at);
    return p - at;
}

/* The query's time range reaches time field i (a top-level field) after
 * the candidates: it decides the rest of each range. LATEST takes every
 * row of each candidate, newest first: a reversed scan for ascending time,
 * a forward one for descending (revts). RANGE and WINDOW scan from the
 * first time's bytes to the last's: for revts the newest time is first.
 * An encoding that does not keep the order between the two (ts:str across
 * a change in its digit count) gets each candidate's whole prefix. */
static int plan_time_range(planner *pl, const query *q, const candidates *cs, size_t i, plan *out)
{
    const field *f = &pl->ks->fields[i];
    int descending = (f->def->flags & F_DESCENDING) != 0;
    range_shape s = { .hi_key_successor = 0 };
    if (q->kind == QUERY_LATEST) {
        s.limit = q->limit;
        s.reverse = !descending;
        return plan_each_candidate(pl, cs, &s, out);
    }
    uint8_t lo[PLAN_MAX_TIME], hi[PLAN_MAX_TIME];
    size_t lo_len = time_bytes(pl, i, descending ? q->to_ms : q->from_ms, cs->len, lo);
    size_t hi_len = time_bytes(pl, i, descending ? q->from_ms : q->to_ms, cs->len, hi);
    if (lo_len == hi_len && memcmp(lo, hi, lo_len) <= 0) {
        s.lo_tail = lo;
        s.lo_tail_len = lo_len;
        s.hi_tail = hi;
        s.hi_tail_len = hi_len;
        s.hi_key_successor = i + f->span == pl->ks->nfields;
    }
    return plan_each_candidate(pl, cs, &s, out);
}

/* Every field is known for each candidate: each is one whole row key. */
static int plan_rows(const planner *pl, const query *q, const candidates *cs, plan *out)
{
    range_shape s = { .hi_key_successor = 1, .limit = q->kind == QUERY_LATEST ? q->limit : 0 };
    return plan_each_candidate(pl, cs, &s, out);
}

/* Whether the subtree at i writes the whole entity (its id or name, the
 * trace key, or its UID): a key with one of these before the time field
 * holds no other entity's rows in a RANGE or LATEST plan. A bucket of the
 * entity (hash) does not: many entities share a bucket. */
static int field_pins_entity(const keyscheme *ks, size_t i)
{
    for (size_t j = i; j < i + ks->fields[i].span; j++) {
        const field *f = &ks->fields[j];
        if (f->def->flags & F_BUCKET_PREFIX) {
            j += f->span - 1; /* skip the bucket's inputs */
            continue;
        }
        if (!strcmp(f->def->name, "entity") || !strcmp(f->def->name, "key") ||
            (!strcmp(f->def->name, "uid") && f->table == NAME_ENTITY))
            return 1;
    }
    return 0;
}

/* Exactness of a plan that reached time field `time_at` (nfields: none):
 * a GET and a WINDOW that was not a full scan read only wanted rows; a
 * RANGE or LATEST does when the entity is pinned before the time field. */
static uint8_t plan_is_exact(const keyscheme *ks, const query *q, size_t time_at)
{
    if (q->kind == QUERY_GET || q->kind == QUERY_WINDOW)
        return 1;
    for (size_t i = 0; i < time_at; i += ks->fields[i].span)
        if (field_pins_entity(ks, i))
            return 1;
    return 0;
}

int keyencoder_plan(keyencoder *ke, const query *q, plan *out)
{
    const keyscheme *ks = ke->ks;
    out->full_scan = 0;
    out->exact = 1;
    out->nranges = 0;
    out->nbytes = 0;
    uint8_t k[KEYSCHEME_MAX_KEY];
    planner pl = { ks, ke, q->rec, query_knows(q->kind), k };
    if (query_wants_nothing(q) || ((pl.knows & F_READS_ENTITY) && !names_known(&pl)))
        return 0;

    candidates cs = { .count = 1 };
    const field *fs = ks->fields;
    for (size_t i = 0; i < ks->nfields; i += fs[i].span) {
        const field *f = &fs[i];
        if ((f->def->flags & F_TIME) && !(pl.knows & F_TIME)) {
            out->exact = plan_is_exact(ks, q, i);
            return plan_time_range(&pl, q, &cs, i, out);
        }
        if (f->def->flags & F_BUCKET_PREFIX) {
            if (!bucket_known(&pl, i, ks->nfields, cs.len) && !add_slot(&cs, f, k))
                return plan_full_scan(out);
            cs.len += f->width;
        } else if (!eval_field(&pl, i, &cs.len)) {
            return plan_full_scan(out);
        }
    }
    out->exact = plan_is_exact(ks, q, ks->nfields);
    return plan_rows(&pl, q, &cs, out);
}
