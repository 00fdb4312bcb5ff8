/* keyscheme.c -- row-key schemes: parse once, compile to ops, encode fast.
 *
 * Grammar (whitespace separates tokens and is otherwise ignored):
 *
 *     scheme = field { field } ;
 *     field  = name [ "(" arg { "," arg } ")" ] [ ":" "str" ] ;
 *
 * What a field's arguments are (a bucket count, one field, a list of fields,
 * a UID name kind, a width, the word ts) and whether it has a ":str" text
 * form is data, in field_defs[] below: the parser, the printer, the length
 * calculation and the compiler read that table and never name a field. A
 * new field is one row there plus, if it writes new bytes, one op in the
 * encoder's switch.
 *
 * Three representations, each for one job:
 *  - field[]: the parse tree, flattened in pre-order; each node records
 *    `span`, the size of its subtree, so the children of node i are the
 *    nodes i+1 .. i+span-1 and its next sibling is i+span. Planning reads
 *    and printing the normalised expression walk this.
 *  - op[]: the same tree compiled for encoding, a flat array where a
 *    transform (hash, reverse) is a BEGIN op, its inner fields' ops, and an
 *    END op. BEGIN remembers the output position in a mark slot (one per
 *    nesting depth); END works on the bytes since the mark: hash() replaces
 *    them by a bucket prefix it reserved at BEGIN, reverse() reverses them
 *    in place. So encoding never allocates, never shifts bytes and never
 *    recurses: one pass over ops writing straight into the caller's buffer.
 *    hash() needs its input bytes somewhere before they are discarded, so a
 *    scheme has a `peak` (most bytes in use at once) next to max_len; when
 *    the caller's buffer is smaller than the peak the encoder works in a
 *    stack buffer and copies (never the case for the presets: their peak is
 *    their max_len).
 *  - keyencoder: the per-run mutable state: the RNG behind salt() and the
 *    OpenTSDB-style UID tables. A UID table is a growable array indexed by
 *    the record's dense id (metric or host number) holding the UID, 0 for
 *    "not assigned yet": one load on the hot path instead of a hash lookup.
 */
#include "workloads/keyscheme.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/rng.h"

#define KS_MAX_DEPTH 16           /* transforms nested deeper are an error */
#define KS_MAX_ARGS 2
#define KS_MAX_BUCKETS 65536u
#define KS_MAX_UID_WIDTH 8u       /* OpenTSDB UniqueId: width in 1..8 */
#define KS_TS_STR_DIGITS 13       /* ms since 1970 until year 2286 */
#define KS_U64_DIGITS 20          /* UINT64_MAX = 18446744073709551615 */
#define KS_ENTITY_STR_MAX 32      /* "metric.4294967295/host4294967295" */

/* OpenTSDB facts (src/core/Const.java, src/core/TSDB.java,
 * src/core/IncomingDataPoints.java): a row holds one hour, base time =
 * ts - ts % MAX_TIMESPAN in seconds, stored in TIMESTAMP_BYTES = 4 bytes;
 * UIDs of metrics, tag keys and tag values are 3 bytes wide by default
 * (METRICS_WIDTH, TAG_NAME_WIDTH, TAG_VALUE_WIDTH). */
#define OPENTSDB_MAX_TIMESPAN 3600u
#define OPENTSDB_TIMESTAMP_BYTES 4
#define OPENTSDB_TAG_WIDTH 3

/* ------------------------------------------------------------------------
 * The field table.
 * ---------------------------------------------------------------------- */

typedef enum op_code {
    OP_NONE = 0,
    OP_TS, OP_TS_STR, OP_ENTITY, OP_ENTITY_STR, OP_SEQ, OP_SEQ_STR,
    OP_SALT, OP_HASH_BEGIN, OP_HASH_END, OP_REVERSE_BEGIN, OP_REVERSE_END,
    OP_UID, OP_HOUR, OP_TAGS
} op_code;

typedef enum arg_kind {
    ARG_NONE = 0,
    ARG_BUCKETS,    /* a bucket count 1..65536: sets n and width */
    ARG_FIELD,      /* exactly one inner field */
    ARG_FIELDS,     /* one or more inner fields, up to ')' */
    ARG_UID_KIND,   /* metric | host: sets table */
    ARG_UID_WIDTH,  /* 1..8: sets width */
    ARG_TS          /* the word ts (hour(ts)) */
} arg_kind;

/* OpenTSDB keeps tag keys and tag values in separate UID spaces
 * (UniqueId kinds "tagk" and "tagv"). Hosts are the only tag values a
 * pattern produces, so uid(host, W) and the tagv of tags share a table. */
typedef enum uid_table_id { UID_METRIC, UID_TAGK, UID_TAGV, UID_TABLES } uid_table_id;
#define TAGK_HOST 0  /* name id of the tag key "host" in the tagk table */

enum { F_BUCKET_PREFIX = 1, F_KEEPS_INNER = 2 };

typedef struct field_def {
    const char *name;
    arg_kind args[KS_MAX_ARGS];
    uint8_t op;       /* op of the binary form; BEGIN op of a transform */
    uint8_t str_op;   /* op of the ":str" form; OP_NONE: no text form */
    uint8_t end_op;   /* END op of a transform; OP_NONE for plain fields */
    uint8_t len;      /* bytes it writes itself; 0: the width its args set */
    uint8_t str_len;  /* most bytes of the text form */
    uint8_t flags;
} field_def;

static const field_def field_defs[] = {
    { "ts",      { ARG_NONE },                   OP_TS, OP_TS_STR, OP_NONE, 8, KS_U64_DIGITS, 0 },
    { "entity",  { ARG_NONE },                   OP_ENTITY, OP_ENTITY_STR, OP_NONE, 4, KS_ENTITY_STR_MAX, 0 },
    { "seq",     { ARG_NONE },                   OP_SEQ, OP_SEQ_STR, OP_NONE, 8, KS_U64_DIGITS, 0 },
    { "salt",    { ARG_BUCKETS },                OP_SALT, OP_NONE, OP_NONE, 0, 0, F_BUCKET_PREFIX },
    { "hash",    { ARG_BUCKETS, ARG_FIELDS },    OP_HASH_BEGIN, OP_NONE, OP_HASH_END, 0, 0, F_BUCKET_PREFIX },
    { "reverse", { ARG_FIELD },                  OP_REVERSE_BEGIN, OP_NONE, OP_REVERSE_END, 0, 0, F_KEEPS_INNER },
    { "uid",     { ARG_UID_KIND, ARG_UID_WIDTH }, OP_UID, OP_NONE, OP_NONE, 0, 0, 0 },
    { "hour",    { ARG_TS },                     OP_HOUR, OP_NONE, OP_NONE, OPENTSDB_TIMESTAMP_BYTES, 0, 0 },
    { "tags",    { ARG_NONE },                   OP_TAGS, OP_NONE, OP_NONE, 2 * OPENTSDB_TAG_WIDTH, 0, 0 },
};
#define FIELD_DEFS (sizeof field_defs / sizeof field_defs[0])

static const struct uid_kind {
    const char *name;
    uid_table_id table;
} uid_kinds[] = { { "metric", UID_METRIC }, { "host", UID_TAGV } };

/* What comes after each argument kind, for "expected ',' after ..." */
static const char *arg_noun(arg_kind a)
{
    switch (a) {
    case ARG_BUCKETS:   return "the bucket count";
    case ARG_FIELD:     return "the field (it takes exactly one)";
    case ARG_FIELDS:    return "the fields";
    case ARG_UID_KIND:  return "the name kind";
    case ARG_UID_WIDTH: return "the UID width";
    case ARG_TS:        return "'ts'";
    case ARG_NONE:      break;
    }
    return "";
}

/* ------------------------------------------------------------------------
 * The parsed and compiled scheme.
 * ---------------------------------------------------------------------- */

typedef struct field {
    const field_def *def;
    uint32_t n;       /* bucket count of salt() / hash() */
    uint32_t width;   /* bytes of a bucket prefix or a UID */
    uint32_t span;    /* nodes in this subtree, itself included */
    uint32_t col;     /* 1-based column of its name, for later passes' messages */
    uint8_t text;     /* ":str" given */
    uint8_t table;    /* uid(): which UID table */
} field;

typedef struct op {
    uint8_t code;     /* op_code */
    uint8_t width;
    uint8_t slot;     /* mark slot of a BEGIN/END pair: its nesting depth */
    uint8_t table;
    uint32_t n;
} op;

struct keyscheme {
    field *fields;    /* pre-order, see top of file */
    size_t nfields;
    op *ops;
    size_t nops;
    size_t max_len;   /* longest key */
    size_t peak;      /* most bytes in use while encoding, >= max_len */
    char *expr;       /* normalised */
};

static uint32_t bucket_width(uint32_t n)
{
    assert(n >= 1 && n <= KS_MAX_BUCKETS);
    return n <= 256 ? 1 : 2;
}

static const field_def *field_def_find(const char *name, size_t len)
{
    for (size_t i = 0; i < FIELD_DEFS; i++)
        if (strlen(field_defs[i].name) == len && memcmp(field_defs[i].name, name, len) == 0)
            return &field_defs[i];
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
    T_END, T_NAME, T_NUMBER, T_LPAREN, T_RPAREN, T_COMMA, T_COLON, T_OTHER
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
    char *err;
    size_t errcap;
    int failed;
} parser;

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_name_char(char c) { return is_name_start(c) || is_digit(c); }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

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
    } else {
        char c = s[i++];
        t.kind = c == '(' ? T_LPAREN : c == ')' ? T_RPAREN : c == ',' ? T_COMMA
               : c == ':' ? T_COLON : T_OTHER;
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
        char msg[320];
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
        if (text_only && field_defs[i].str_op == OP_NONE)
            continue;
        if (n)
            put_str(out, cap, &n, ", ");
        put_str(out, cap, &n, field_defs[i].name);
    }
}

/* "a field name (ts, entity, ...)" followed by " or <or_else>" if given. */
static int fail_expected_field(parser *ps, const char *or_else)
{
    char names[160], what[240];
    list_field_names(names, sizeof names, 0);
    snprintf(what, sizeof what, "a field name (%s)%s%s", names,
             or_else ? " or " : "", or_else ? or_else : "");
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

static int parse_field(parser *ps, unsigned depth, const char *or_else);

static int parse_number_arg(parser *ps, uint64_t lo, uint64_t hi, const char *what, uint32_t *out)
{
    if (ps->tok.kind != T_NUMBER || ps->tok.num < lo || ps->tok.num > hi)
        return fail_expected(ps, what);
    *out = (uint32_t)ps->tok.num;
    lex_next(ps);
    return 0;
}

/* Parses one argument of kind a into node `self` (or its subtree). */
static int parse_arg(parser *ps, size_t self, arg_kind a, unsigned depth)
{
    switch (a) {
    case ARG_BUCKETS: {
        uint32_t n = 0;
        if (parse_number_arg(ps, 1, KS_MAX_BUCKETS, "a bucket count 1..65536", &n) < 0)
            return -1;
        ps->fields[self].n = n;
        ps->fields[self].width = bucket_width(n);
        return 0;
    }
    case ARG_UID_WIDTH:
        return parse_number_arg(ps, 1, KS_MAX_UID_WIDTH, "a UID width 1..8", &ps->fields[self].width);
    case ARG_UID_KIND:
        for (size_t i = 0; i < sizeof uid_kinds / sizeof uid_kinds[0]; i++) {
            if (tok_is_word(ps, uid_kinds[i].name)) {
                ps->fields[self].table = (uint8_t)uid_kinds[i].table;
                lex_next(ps);
                return 0;
            }
        }
        return fail_expected(ps, "a name kind ('metric' or 'host')");
    case ARG_TS:
        if (!tok_is_word(ps, "ts"))
            return fail_expected(ps, "'ts'");
        lex_next(ps);
        return 0;
    case ARG_FIELD:
        return parse_field(ps, depth + 1, NULL);
    case ARG_FIELDS:
        if (parse_field(ps, depth + 1, NULL) < 0)
            return -1;
        while (ps->tok.kind != T_RPAREN)
            if (parse_field(ps, depth + 1, "')'") < 0)
                return -1;
        return 0;
    case ARG_NONE:
        break;
    }
    assert(!"no such argument kind");
    return -1;
}

/* field = name [ "(" arg { "," arg } ")" ] [ ":" "str" ]. `or_else` names
 * what else could stand where this field was expected, for the message. */
static int parse_field(parser *ps, unsigned depth, const char *or_else)
{
    const token name = ps->tok;
    const field_def *def = name.kind == T_NAME ? field_def_find(ps->src + name.at, name.len) : NULL;
    if (!def)
        return fail_expected_field(ps, or_else);
    if (depth >= KS_MAX_DEPTH)
        return fail_at(ps, name.at, "expected at most %d nested fields, found '%s' nested deeper",
                       KS_MAX_DEPTH, def->name);
    long self = push_field(ps);
    if (self < 0)
        return -1;
    ps->fields[self].def = def;
    ps->fields[self].col = (uint32_t)name.at + 1;
    lex_next(ps);

    if (def->args[0] != ARG_NONE) {
        char what[80];
        snprintf(what, sizeof what, "'(' after %s", def->name);
        if (expect(ps, T_LPAREN, what) < 0)
            return -1;
        for (size_t a = 0; a < KS_MAX_ARGS && def->args[a] != ARG_NONE; a++) {
            if (a > 0) {
                snprintf(what, sizeof what, "',' after %s", arg_noun(def->args[a - 1]));
                if (expect(ps, T_COMMA, what) < 0)
                    return -1;
            }
            if (parse_arg(ps, (size_t)self, def->args[a], depth) < 0)
                return -1;
        }
        size_t last = KS_MAX_ARGS - 1;
        while (def->args[last] == ARG_NONE)
            last--;
        snprintf(what, sizeof what, "')' after %s", arg_noun(def->args[last]));
        if (expect(ps, T_RPAREN, what) < 0)
            return -1;
    }

    if (ps->tok.kind == T_COLON) {
        if (def->str_op == OP_NONE) {
            char names[160], what[240];
            list_field_names(names, sizeof names, 1);
            snprintf(what, sizeof what, "no ':str' after %s (only %s have a text form)", def->name, names);
            return fail_expected(ps, what);
        }
        lex_next(ps);
        if (!tok_is_word(ps, "str"))
            return fail_expected(ps, "'str' after ':'");
        lex_next(ps);
        ps->fields[self].text = 1;
    }
    ps->fields[self].span = (uint32_t)(ps->nfields - (size_t)self);
    return 0;
}

static int parse_scheme(parser *ps)
{
    lex_next(ps);
    if (parse_field(ps, 0, NULL) < 0)
        return -1;
    while (ps->tok.kind != T_END)
        if (parse_field(ps, 0, "end of input") < 0)
            return -1;
    return 0;
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
 * inner fields after them; it keeps the inner bytes or discards them. */
static void measure_field(const field *fs, size_t i, size_t *len, size_t *peak)
{
    const field *f = &fs[i];
    size_t own = field_own_len(f), inner_len, inner_peak;
    measure_seq(fs, i + 1, i + f->span, &inner_len, &inner_peak);
    *len = own + ((f->def->flags & F_KEEPS_INNER) ? inner_len : 0);
    *peak = own + inner_peak;
}

static void render_seq(const field *fs, size_t i, size_t end, char *out, size_t cap, size_t *n);

static void render_arg(const field *fs, size_t i, arg_kind a, char *out, size_t cap, size_t *n)
{
    char num[16];
    switch (a) {
    case ARG_BUCKETS:
        snprintf(num, sizeof num, "%" PRIu32, fs[i].n);
        put_str(out, cap, n, num);
        break;
    case ARG_UID_WIDTH:
        snprintf(num, sizeof num, "%" PRIu32, fs[i].width);
        put_str(out, cap, n, num);
        break;
    case ARG_UID_KIND:
        for (size_t k = 0; k < sizeof uid_kinds / sizeof uid_kinds[0]; k++)
            if (uid_kinds[k].table == fs[i].table)
                put_str(out, cap, n, uid_kinds[k].name);
        break;
    case ARG_TS:
        put_str(out, cap, n, "ts");
        break;
    case ARG_FIELD:
    case ARG_FIELDS:
        render_seq(fs, i + 1, i + fs[i].span, out, cap, n);
        break;
    case ARG_NONE:
        break;
    }
}

static void render_field(const field *fs, size_t i, char *out, size_t cap, size_t *n)
{
    const field_def *d = fs[i].def;
    put_str(out, cap, n, d->name);
    if (d->args[0] != ARG_NONE) {
        put_str(out, cap, n, "(");
        for (size_t a = 0; a < KS_MAX_ARGS && d->args[a] != ARG_NONE; a++) {
            if (a)
                put_str(out, cap, n, ", ");
            render_arg(fs, i, d->args[a], out, cap, n);
        }
        put_str(out, cap, n, ")");
    }
    if (fs[i].text)
        put_str(out, cap, n, ":str");
}

static void render_seq(const field *fs, size_t i, size_t end, char *out, size_t cap, size_t *n)
{
    for (size_t first = i; i < end; i += fs[i].span) {
        if (i != first)
            put_str(out, cap, n, " ");
        render_field(fs, i, out, cap, n);
    }
}

static size_t compile_seq(const field *fs, size_t i, size_t end, unsigned depth, op *ops, size_t n);

static size_t compile_field(const field *fs, size_t i, unsigned depth, op *ops, size_t n)
{
    const field *f = &fs[i];
    const field_def *d = f->def;
    assert(depth < KS_MAX_DEPTH && f->width <= UINT8_MAX);
    op o = { f->text ? d->str_op : d->op, (uint8_t)f->width, (uint8_t)depth, f->table, f->n };
    ops[n++] = o;
    if (d->end_op != OP_NONE) {
        n = compile_seq(fs, i + 1, i + f->span, depth + 1, ops, n);
        o.code = d->end_op;
        ops[n++] = o;
    }
    return n;
}

static size_t compile_seq(const field *fs, size_t i, size_t end, unsigned depth, op *ops, size_t n)
{
    for (; i < end; i += fs[i].span)
        n = compile_field(fs, i, depth, ops, n);
    return n;
}

/* ------------------------------------------------------------------------
 * Public: parse, inspect, presets.
 * ---------------------------------------------------------------------- */

int keyscheme_parse(const char *expr, keyscheme **out, char *err, size_t errcap)
{
    assert(expr && out);
    *out = NULL;
    if (err && errcap)
        err[0] = '\0';
    parser ps = { .src = expr, .err = err, .errcap = errcap };
    if (parse_scheme(&ps) < 0) {
        free(ps.fields);
        return -1;
    }

    size_t len, peak;
    measure_seq(ps.fields, 0, ps.nfields, &len, &peak);
    if (peak > KEYSCHEME_MAX_KEY) {
        fail_at(&ps, 0, "expected a key of at most %d bytes (KEYSCHEME_MAX_KEY), "
                "found one of up to %zu bytes", KEYSCHEME_MAX_KEY, peak);
        free(ps.fields);
        return -1;
    }

    keyscheme *ks = calloc(1, sizeof *ks);
    size_t expr_len = 0;
    render_seq(ps.fields, 0, ps.nfields, NULL, 0, &expr_len);
    if (ks) {
        ks->fields = ps.fields;
        ks->nfields = ps.nfields;
        ks->max_len = len;
        ks->peak = peak;
        ks->ops = malloc(2 * ps.nfields * sizeof *ks->ops);
        ks->expr = malloc(expr_len + 1);
    }
    if (!ks || !ks->ops || !ks->expr) {
        fail_at(&ps, 0, "out of memory");
        if (ks)
            keyscheme_free(ks);
        else
            free(ps.fields);
        return -1;
    }
    size_t n = 0;
    render_seq(ks->fields, 0, ks->nfields, ks->expr, expr_len + 1, &n);
    ks->nops = compile_seq(ks->fields, 0, ks->nfields, 0, ks->ops, 0);
    assert(n == expr_len && ks->nops <= 2 * ks->nfields);
    assert(ks->max_len >= 1 && ks->max_len <= ks->peak);
    *out = ks;
    return 0;
}

void keyscheme_free(keyscheme *ks)
{
    if (!ks)
        return;
    free(ks->fields);
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

size_t keyscheme_bucket_prefix(const keyscheme *ks, uint32_t b, uint8_t *out)
{
    size_t width = 0;
    uint32_t n = keyscheme_buckets(ks, &width);
    assert(n > 0 && b < n);
    (void)n;
    put_be(out, b, (unsigned)width);
    return width;
}

/* '#' stands for the bucket count. */
static const struct preset {
    const char *name;
    const char *expr;
} presets[] = {
    { "monotonic", "ts" },
    { "salted",    "salt(#) ts" },
    { "hashed",    "hash(#, ts) ts" },
    { "reversed",  "reverse(ts)" },
    { "promoted",  "entity ts" },
    { "opentsdb",  "uid(metric, 3) hour(ts) tags" },
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
        for (const char *s = presets[i].expr; *s; s++) {
            char c[2] = { *s, '\0' };
            put_str(out, cap, &n, *s == '#' ? num : c);
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
    uint32_t last;     /* the last UID assigned; the first is 1 */
} uid_table;

struct keyencoder {
    const keyscheme *ks;
    rng rng;
    uid_table uids[UID_TABLES];
};

keyencoder *keyencoder_new(const keyscheme *ks, uint64_t seed)
{
    keyencoder *ke = calloc(1, sizeof *ke);
    if (!ke)
        return NULL;
    ke->ks = ks;
    rng_seed(&ke->rng, seed);
    return ke;
}

void keyencoder_free(keyencoder *ke)
{
    if (!ke)
        return;
    for (int t = 0; t < UID_TABLES; t++)
        free(ke->uids[t].uid_of);
    free(ke);
}

/* The cold path of uid_get: a name seen for the first time. OpenTSDB
 * (src/uid/UniqueId.java, getOrCreateId) assigns by an atomic increment of
 * a counter that starts at 0, so UIDs are 1, 2, 3... in order of first use.
 * Out of memory here has no way back to the caller, so it aborts. */
static uint32_t uid_assign(uid_table *t, uint32_t id)
{
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
    assert(t->uid_of[id] == 0 && t->last < UINT32_MAX);
    return t->uid_of[id] = ++t->last;
}

static uint32_t uid_get(uid_table *t, uint32_t id)
{
    if (id < t->cap && t->uid_of[id] != 0)
        return t->uid_of[id];
    return uid_assign(t, id);
}

/* The name id a UID table is keyed by, for this record. */
static uint32_t uid_name_id(const record *rec, unsigned table)
{
    return table == UID_METRIC ? rec->metric : table == UID_TAGV ? rec->host : TAGK_HOST;
}

/* Apache Phoenix's salt bucket, SaltingUtil.getSaltingByte and hashCode
 * (phoenix-core/src/main/java/org/apache/phoenix/schema/SaltingUtil.java):
 *     int result = 1; for each byte b: result = 31 * result + b;
 *     bucket = (byte)(Math.abs(result) % bucketNum)
 * with b a signed Java byte and int arithmetic wrapping modulo 2^32 (done
 * here in uint32_t, where wrapping is defined). One deliberate difference:
 * for result == Integer.MIN_VALUE Java's Math.abs stays negative and
 * Phoenix can yield a byte >= bucketNum; here |MIN_VALUE| is 2^31, so the
 * bucket is always < n. The two agree whenever n is a power of two. Phoenix
 * caps n at 256; above that the same formula gives a 2-byte bucket. */
static uint32_t phoenix_bucket(const uint8_t *bytes, size_t len, uint32_t n)
{
    uint32_t h = 1;
    for (size_t i = 0; i < len; i++)
        h = 31u * h + ((uint32_t)bytes[i] - ((bytes[i] & 0x80u) ? 0x100u : 0u));
    uint32_t magnitude = (h & 0x80000000u) ? 0u - h : h;
    return magnitude % n;
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

/* The entity's name (record_name); interim: the key-scheme work in
 * progress replaces this. */
static size_t put_entity_name(uint8_t *out, const record *rec)
{
    char buf[RECORD_NAME_MAX + 1];
    size_t n = record_name(rec, buf, sizeof buf);
    if (n > KS_ENTITY_STR_MAX)
        n = KS_ENTITY_STR_MAX;
    memcpy(out, buf, n);
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

size_t keyencoder_encode(keyencoder *ke, const record *rec, uint8_t *out, size_t cap)
{
    const keyscheme *ks = ke->ks;
    assert(cap >= ks->max_len);
    uint8_t scratch[KEYSCHEME_MAX_KEY];
    uint8_t *k = cap >= ks->peak ? out : scratch;
    size_t mark[KS_MAX_DEPTH] = { 0 };
    size_t p = 0;

    for (const op *o = ks->ops, *end = ks->ops + ks->nops; o < end; o++) {
        switch ((op_code)o->code) {
        case OP_TS:
            put_be(k + p, rec->ts_ms, 8);
            p += 8;
            break;
        case OP_TS_STR:
            p += put_dec(k + p, rec->ts_ms, KS_TS_STR_DIGITS);
            break;
        case OP_ENTITY:
            put_be(k + p, rec->entity, 4);
            p += 4;
            break;
        case OP_ENTITY_STR:
            p += put_entity_name(k + p, rec);
            break;
        case OP_SEQ:
            put_be(k + p, rec->seq, 8);
            p += 8;
            break;
        case OP_SEQ_STR:
            p += put_dec(k + p, rec->seq, KS_U64_DIGITS);
            break;
        case OP_SALT:
            put_be(k + p, rng_below(&ke->rng, o->n), o->width);
            p += o->width;
            break;
        case OP_HASH_BEGIN:
            mark[o->slot] = p;
            p += o->width; /* the prefix goes here; inner bytes follow */
            break;
        case OP_HASH_END: {
            size_t at = mark[o->slot], in = at + o->width;
            put_be(k + at, phoenix_bucket(k + in, p - in, o->n), o->width);
            p = in;
            break;
        }
        case OP_REVERSE_BEGIN:
            mark[o->slot] = p;
            break;
        case OP_REVERSE_END:
            reverse_bytes(k + mark[o->slot], p - mark[o->slot]);
            break;
        case OP_UID:
            put_be(k + p, uid_get(&ke->uids[o->table], uid_name_id(rec, o->table)), o->width);
            p += o->width;
            break;
        case OP_HOUR: {
            uint64_t s = rec->ts_ms / 1000;
            put_be(k + p, s - s % OPENTSDB_MAX_TIMESPAN, OPENTSDB_TIMESTAMP_BYTES);
            p += OPENTSDB_TIMESTAMP_BYTES;
            break;
        }
        case OP_TAGS:
            put_be(k + p, uid_get(&ke->uids[UID_TAGK], TAGK_HOST), OPENTSDB_TAG_WIDTH);
            p += OPENTSDB_TAG_WIDTH;
            put_be(k + p, uid_get(&ke->uids[UID_TAGV], rec->host), OPENTSDB_TAG_WIDTH);
            p += OPENTSDB_TAG_WIDTH;
            break;
        case OP_NONE:
            assert(!"OP_NONE compiled");
            break;
        }
        assert(p <= ks->peak);
    }
    assert(p >= 1 && p <= ks->max_len);
    if (k != out)
        memcpy(out, k, p);
    return p;
}
