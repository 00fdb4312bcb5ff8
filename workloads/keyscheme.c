/* keyscheme.c -- row-key schemes: the field table, parsing, printing, presets.
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
 * bytes, a writer called from the encoder's switch and from ks_put_value.
 *
 * The scheme's code is split by job (keyscheme_impl.h says what the files
 * share): this file holds the field table, the parser, the printer, the
 * length calculation and the presets; keyscheme_encode.c the compiler and
 * the encoder; keyscheme_plan.c the read planner.
 *
 * Three representations, each for one job:
 *  - field[]: the parse tree, flattened in pre-order; each node records
 *    `span`, the size of its subtree, so the children of node i are the
 *    nodes i+1 .. i+span-1 and its next sibling is i+span. Planning reads
 *    and printing the normalised expression walk this. Literal bytes live in
 *    one pool next to it (a node holds an offset and a length).
 *  - op[]: the same tree compiled for encoding, a flat array of BEGIN,
 *    value and END ops that one loop runs without recursing or allocating
 *    (keyscheme_encode.c, top comment).
 *  - keyencoder: the per-run mutable state: the RNG behind salt(), the
 *    OpenTSDB-style UID tables, and the mark and skip slots encoding uses
 *    (keyscheme_encode.c).
 *
 * Reads are planned from field[], not from op[] (keyscheme_plan.c).
 */
#include "workloads/keyscheme.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nearest.h"
#include "workloads/keyscheme_impl.h"

/* ------------------------------------------------------------------------
 * The field table.
 * ---------------------------------------------------------------------- */

static const field_def field_defs[] = {
    { "ts",        { ARG_NONE },                    OP_TS, OP_TS_STR, OP_NONE, 8, KS_U64_DIGITS, F_TIME },
    { "revts",     { ARG_NONE },                    OP_REVTS, OP_REVTS_STR, OP_NONE, 8, KS_REVTS_DIGITS,
                   F_TIME | F_DESCENDING },
    { "entity",    { ARG_NONE },                    OP_ENTITY, OP_NAME, OP_NONE, 4, KEYSCHEME_MAX_NAME, 0 },
    { "key",       { ARG_NONE },                    OP_KEY, OP_NONE, OP_NONE, KEYSCHEME_MAX_NAME, 0, 0 },
    { "seq",       { ARG_NONE },                    OP_SEQ, OP_SEQ_STR, OP_NONE, 8, KS_U64_DIGITS, 0 },
    { "salt",      { ARG_BUCKETS },                 OP_SALT, OP_SALT, OP_NONE, 0, 1, F_BUCKET_PREFIX },
    { "hash",      { ARG_BUCKETS, ARG_FIELDS },     OP_RESERVE, OP_RESERVE, OP_HASH_END, 0, 1, F_BUCKET_PREFIX },
    { "psalt",     { ARG_PHOENIX_BUCKETS },         OP_RESERVE, OP_RESERVE, OP_REST_END, 0, 1,
                   F_BUCKET_PREFIX | F_COVERS_REST },
    { "osalt",     { ARG_BUCKETS },                 OP_RESERVE, OP_RESERVE, OP_REST_END, 0, 1,
                   F_BUCKET_PREFIX | F_COVERS_REST | F_SKIPS_TIME },
    { "md5",       { ARG_FIELDS },                  OP_RESERVE, OP_RESERVE, OP_MD5_END, 0, 0, F_SLICE },
    { "reverse",   { ARG_FIELD },                   OP_MARK, OP_NONE, OP_REVERSE_END, 0, 0, F_KEEPS_INNER },
    { "revdomain", { ARG_FIELD },                   OP_MARK, OP_NONE, OP_REVDOMAIN_END, 0, 0, F_KEEPS_INNER },
    { "uid",       { ARG_UID_KIND, ARG_UID_WIDTH }, OP_UID, OP_NONE, OP_NONE, 0, 0, 0 },
    { "hour",      { ARG_TS },                      OP_HOUR, OP_NONE, OP_NONE, OPENTSDB_TIMESTAMP_BYTES, 0, F_TIME },
    { "tags",      { ARG_TAG_COUNT },               OP_TAGS, OP_NONE, OP_NONE, 0, 0,
                   F_OPTIONAL_ARGS },
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

/* The record values the bytes of field f itself depend on (R_ bits; see
 * keyscheme_impl.h): a function of what it writes, its op. */
static uint16_t field_reads(const field *f)
{
    switch ((op_code)(f->text ? f->def->str_op : f->def->op)) {
    case OP_TS:
    case OP_TS_STR:
    case OP_REVTS:
    case OP_REVTS_STR:
    case OP_HOUR:
        return R_TIME;
    case OP_ENTITY:
        return R_ENTITY;
    case OP_NAME:
    case OP_KEY:
        return R_NAME;
    case OP_SEQ:
    case OP_SEQ_STR:
        return R_SEQ;
    case OP_SALT:
        return R_RANDOM;
    case OP_UID:
        return name_reads(f->table);
    case OP_TAGS: {
        uint16_t reads = 0;
        for (uint32_t t = 0; t < f->n; t++)
            reads |= name_reads(ks_tag_defs[t].values);
        return reads;
    }
    default: /* a literal; a transform, whose inner fields read for it */
        return 0;
    }
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
    f->reads = field_reads(f);
    f->span = (uint32_t)(ps->nfields - (size_t)self);
    return 0;
}

static int parse_scheme(parser *ps)
{
    lex_next(ps);
    return parse_list(ps, 0, T_END, "end of input");
}

/* ------------------------------------------------------------------------
 * Measuring and printing the field tree.
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
        /* an empty literal ("") has no bytes in the pool, which may be NULL */
        render_literal(f->width ? lits + f->aux : lits, f->width, out, cap, n);
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
    ks_compile(ks);
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

const char *keyscheme_preset_nearest(const char *word)
{
    if (!word)
        return NULL;
    nearest n = nearest_start(word, nearest_limit(word), 0);
    for (size_t i = 0; i < PRESETS; i++)
        nearest_offer(&n, presets[i].name);
    return n.best;
}

/* Also returns -1 when the expression does not fit in cap. A bucket count
 * above 65536 (KS_MAX_BUCKETS, what a 2-byte prefix holds) is capped there:
 * --servers allows 100,000, and a preset is one bucket per server only up
 * to that (docs/keyschemes.md). 0 is written as given: keyscheme_parse
 * then reports it. */
int keyscheme_preset_expr(const char *name, uint32_t buckets, char *out, size_t cap)
{
    if (buckets > KS_MAX_BUCKETS)
        buckets = KS_MAX_BUCKETS;
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
