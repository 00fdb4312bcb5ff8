/* assertion.c -- CI assertions on a run's figures: parsing, checking,
 * describing (the contract and the grammar: assertion.h).
 *
 * Parsing is a cursor over the text, one small function per token kind
 * (a word, an operator, a number, a duration, a count, a scheme name);
 * each failure names the token found ("found '=>'", or "found the end")
 * and what was expected there. Nothing is tokenised ahead: an operator
 * may touch its neighbours (write_max_mean<=1.2) because a word ends at an
 * operator character. The normalised text is built from the tokens once
 * the whole text has parsed.
 *
 * Durations are parsed here, not with scenario/units.c, so that the report
 * writers' tests link the reports library alone; the dozen lines below
 * accept exactly what units_parse_duration does (a whole number and a
 * unit, us, ms, s, m, h or d); test_assertion.c checks the two agree on the forms
 * users write. Messages escape control bytes as \xNN, as core/text.h's
 * escape_text does, but of a slice of the text (shown), not a whole string.
 *
 * Checking reads only the run: a figure through the registry
 * (figure_value), balance through stats_windows over the chosen windows
 * (the same max/mean the window figures use), steady from the windows'
 * region counts and the timeline's moves.
 */
#include "reports/assertion.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/stats.h"

#define SHOWN 40 /* characters of a user's token a message shows */

/* ---- messages ---- */

/* s[0..len) for a message: control bytes as \xNN, cut to SHOWN characters
 * with "..." (never inside an escape); into out, which it returns. */
static const char *shown(const char *s, size_t len, char *out, size_t cap)
{
    size_t n = 0, i = 0;
    for (; i < len && n + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t w = c < 0x20 || c == 0x7f ? 4 : 1;
        if (n + w > SHOWN)
            break;
        if (w == 4)
            snprintf(out + n, cap - n, "\\x%02X", c);
        else
            out[n] = (char)c;
        n += w;
    }
    if (i < len && n + 4 <= cap) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

/* The parser's state: the text, where it stands, where messages go. */
typedef struct cursor {
    const char *p;
    char *err;
    size_t errcap;
} cursor;

#define ASSERTION_PRINTF(f, a) __attribute__((format(printf, f, a)))

static int fail(cursor *c, const char *fmt, ...) ASSERTION_PRINTF(2, 3);
static int fail(cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (c->errcap)
        vsnprintf(c->err, c->errcap, fmt, ap);
    va_end(ap);
    return -1;
}

static void skip_space(cursor *c)
{
    while (*c->p && isspace((unsigned char)*c->p))
        c->p++;
}

/* Length of the token at p: up to whitespace or the end. */
static size_t token_len(const char *p)
{
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]))
        n++;
    return n;
}

/* "'TOKEN'" (the token at the cursor) or "the end", for "found ...". */
static const char *found(const cursor *c, char *buf, size_t cap)
{
    if (!*c->p)
        return "the end";
    char tok[SHOWN * 4 + 8];
    snprintf(buf, cap, "'%s'", shown(c->p, token_len(c->p), tok, sizeof tok));
    return buf;
}

#define FOUND(c) found((c), found_buf, sizeof found_buf)

static int is_op_char(char ch)
{
    return ch == '<' || ch == '>' || ch == '=' || ch == '!';
}

/* A word: up to whitespace, an operator character or the end. Sets *len. */
static const char *word(cursor *c, size_t *len)
{
    skip_space(c);
    const char *start = c->p;
    while (*c->p && !isspace((unsigned char)*c->p) && !is_op_char(*c->p))
        c->p++;
    *len = (size_t)(c->p - start);
    return start;
}

static int word_is(const char *w, size_t len, const char *keyword)
{
    return len == strlen(keyword) && !memcmp(w, keyword, len);
}

/* ---- tokens ---- */

static const char *const OP_NAMES[] = { "<", "<=", ">", ">=", "==" };

static int parse_op(cursor *c, const char *after, assertion_op *op)
{
    char found_buf[SHOWN * 4 + 16];
    skip_space(c);
    size_t n = 0;
    while (is_op_char(c->p[n]))
        n++;
    for (int i = 0; i < 5 && n; i++) {
        if (strlen(OP_NAMES[i]) == n && !memcmp(c->p, OP_NAMES[i], n)) {
            *op = (assertion_op)i;
            c->p += n;
            return 0;
        }
    }
    return fail(c, "expected an operator (<, <=, >, >=, ==) after '%s', found %s", after,
                FOUND(c));
}

/* A plain decimal with an optional exponent: [+-]D[.D][e[+-]D], digits on
 * at least one side of the point. Whole token. */
static int is_decimal(const char *s, size_t len)
{
    size_t i = 0, digits = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        i++;
    while (i < len && isdigit((unsigned char)s[i]))
        i++, digits++;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && isdigit((unsigned char)s[i]))
            i++, digits++;
    }
    if (!digits)
        return 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exp = 0;
        while (i < len && isdigit((unsigned char)s[i]))
            i++, exp++;
        if (!exp)
            return 0;
    }
    return i == len;
}

static int parse_bound(cursor *c, const char *after, assertion *a)
{
    char found_buf[SHOWN * 4 + 16];
    skip_space(c);
    size_t len = token_len(c->p);
    if (!len || !is_decimal(c->p, len) || len >= sizeof a->bound_text)
        return fail(c, "expected a number after '%s' (a decimal such as 1.2 or 5e4), found %s",
                    after, FOUND(c));
    memcpy(a->bound_text, c->p, len);
    a->bound_text[len] = '\0';
    a->bound = strtod(a->bound_text, NULL);
    if (!isfinite(a->bound))
        return fail(c, "number %s out of range: expected at most about 1.8e308", FOUND(c));
    c->p += len;
    return 0;
}

/* A whole number and a unit (us, ms, s, m, h, d), more than 0: what
 * units_parse_duration takes. Returns 0, or -1 when s is not of that form
 * or does not fit in 64 bits. */
static int duration_us(const char *s, size_t len, uint64_t *out, uint64_t *count,
                       const char **unit)
{
    static const struct { const char *unit; uint64_t us; } units[] = {
        { "us", 1 }, { "ms", 1000 }, { "s", 1000000 }, { "m", 60000000 }, { "h", 3600000000ull },
        { "d", 86400000000ull },
    };
    size_t i = 0;
    uint64_t n = 0;
    for (; i < len && isdigit((unsigned char)s[i]); i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (n > (UINT64_MAX - d) / 10)
            return -1;
        n = n * 10 + d;
    }
    if (i == 0)
        return -1;
    for (size_t u = 0; u < sizeof units / sizeof *units; u++) {
        if (len - i == strlen(units[u].unit) && !memcmp(s + i, units[u].unit, len - i)) {
            if (n > UINT64_MAX / units[u].us)
                return -1;
            *out = n * units[u].us;
            *count = n;
            *unit = units[u].unit;
            return 0;
        }
    }
    return -1;
}

static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return len > 0;
}

/* "over last DURATION" or "over last N windows", after "over". */
static int parse_over(cursor *c, assertion *a, char *written, size_t cap)
{
    char found_buf[SHOWN * 4 + 16];
    skip_space(c);
    size_t len = token_len(c->p);
    if (!word_is(c->p, len, "last"))
        return fail(c, "expected 'last' after 'over', found %s", FOUND(c));
    c->p += len;
    skip_space(c);
    const char *tok = c->p;
    len = token_len(tok);
    if (all_digits(tok, len)) {
        uint64_t n = 0;
        for (size_t i = 0; i < len && n <= ASSERTION_MAX_WINDOWS; i++)
            n = n * 10 + (uint64_t)(tok[i] - '0');
        if (n < 1 || n > ASSERTION_MAX_WINDOWS)
            return fail(c, "expected 1 to %d windows after 'over last', found %s",
                        ASSERTION_MAX_WINDOWS, FOUND(c));
        c->p += len;
        skip_space(c);
        size_t wlen = token_len(c->p);
        if (!word_is(c->p, wlen, "windows") && !word_is(c->p, wlen, "window"))
            return fail(c, "expected 'windows' after 'over last %.*s' (or a duration with a "
                        "unit: %.*sm), found %s", (int)len, tok, (int)len, tok, FOUND(c));
        c->p += wlen;
        a->over_last_windows = (uint32_t)n;
        snprintf(written, cap, "over last %llu window%s", (unsigned long long)n,
                 n == 1 ? "" : "s");
        return 0;
    }
    uint64_t us = 0, count = 0;
    const char *unit = "";
    if (!len || duration_us(tok, len, &us, &count, &unit) < 0 || us == 0)
        return fail(c, "expected a duration after 'over last' (a whole number and a unit, us, "
                    "ms, s, m, h or d: 10m), or N windows, found %s", FOUND(c));
    c->p += len;
    a->over_last_us = us;
    /* the number as parsed (no leading zeros: the text stays short enough
     * to parse again) and the unit as given */
    snprintf(written, cap, "over last %llu%s", (unsigned long long)count, unit);
    return 0;
}

/* One scheme name of a for clause: "quoted", or up to whitespace or ','. */
static int parse_scheme(cursor *c, assertion *a)
{
    char found_buf[SHOWN * 4 + 16], name_shown[SHOWN * 4 + 8];
    skip_space(c);
    const char *start = c->p;
    size_t len;
    if (*c->p == '"') {
        const char *close = strchr(c->p + 1, '"');
        if (!close)
            return fail(c, "expected '\"' to end the scheme name '%s'",
                        shown(c->p, strlen(c->p), name_shown, sizeof name_shown));
        start = c->p + 1;
        len = (size_t)(close - start);
        c->p = close + 1;
    } else {
        while (*c->p && !isspace((unsigned char)*c->p) && *c->p != ',')
            c->p++;
        len = (size_t)(c->p - start);
    }
    if (!len) {
        c->p = start;
        return fail(c, "expected a scheme name after 'for' or ',', found %s", FOUND(c));
    }
    shown(start, len, name_shown, sizeof name_shown);
    if (len >= ASSERTION_SCHEME_MAX)
        return fail(c, "scheme name '%s' too long: at most %d characters (name the scheme in a "
                    "[scheme NAME] section)", name_shown, ASSERTION_SCHEME_MAX - 1);
    if (a->nschemes == ASSERTION_MAX_SCHEMES)
        return fail(c, "too many schemes after 'for': at most %d", ASSERTION_MAX_SCHEMES);
    for (size_t i = 0; i < a->nschemes; i++)
        if (strlen(a->schemes[i]) == len && !memcmp(a->schemes[i], start, len))
            return fail(c, "scheme '%s' named twice after 'for'", name_shown);
    memcpy(a->schemes[a->nschemes], start, len);
    a->schemes[a->nschemes][len] = '\0';
    a->nschemes++;
    return 0;
}

static int parse_for(cursor *c, assertion *a)
{
    for (;;) {
        if (parse_scheme(c, a) < 0)
            return -1;
        skip_space(c);
        if (*c->p != ',')
            return 0;
        c->p++;
    }
}

/* ---- the assertion ---- */

/* The head: FIGURE OP BOUND, balance STAT OP BOUND or steady. Writes the
 * normalised head into head. */
static int parse_head(cursor *c, assertion *a, char *head, size_t cap)
{
    char found_buf[SHOWN * 4 + 16], w_shown[SHOWN * 4 + 8];
    size_t len;
    const char *w = word(c, &len);
    if (!len) {
        c->p = w;
        return fail(c, "expected a figure name, balance or steady, found %s", FOUND(c));
    }
    shown(w, len, w_shown, sizeof w_shown);
    if (word_is(w, len, "balance")) {
        a->kind = ASSERTION_BALANCE;
        size_t slen;
        const char *stat = word(c, &slen);
        if (word_is(stat, slen, "writes") || word_is(stat, slen, "reads")) {
            a->balance_reads = stat[0] == 'r';
        } else {
            c->p = stat;
            return fail(c, "expected writes or reads after 'balance', found %s", FOUND(c));
        }
        char after[32];
        snprintf(after, sizeof after, "balance %s", a->balance_reads ? "reads" : "writes");
        if (parse_op(c, after, &a->op) < 0 || parse_bound(c, OP_NAMES[a->op], a) < 0)
            return -1;
        snprintf(head, cap, "balance %s %s %s", a->balance_reads ? "reads" : "writes",
                 OP_NAMES[a->op], a->bound_text);
        return 0;
    }
    skip_space(c);
    if (word_is(w, len, "steady") && !is_op_char(*c->p)) {
        a->kind = ASSERTION_STEADY;
        a->op = ASSERT_EQ;
        a->bound = 0;
        snprintf(a->bound_text, sizeof a->bound_text, "0");
        snprintf(head, cap, "steady");
        return 0;
    }
    char name[sizeof a->figure->name];
    if (len >= sizeof name) {
        c->p = w;
        return fail(c, "unknown figure '%s': expected a figure name (`regionsim figures` lists "
                    "them), balance or steady", w_shown);
    }
    memcpy(name, w, len);
    name[len] = '\0';
    a->kind = ASSERTION_BOUND;
    a->figure = figure_find(name);
    if (!a->figure) {
        const char *near = figure_nearest(name);
        if (near)
            return fail(c, "unknown figure '%s' (did you mean '%s'?)", w_shown, near);
        return fail(c, "unknown figure '%s': expected a figure name (`regionsim figures` lists "
                    "them), balance or steady", w_shown);
    }
    if (a->figure->scope != FIGURE_SCHEME)
        return fail(c, "'%s' is a %s figure: an assertion bounds a figure of a scheme's whole "
                    "run (busiest_busy, longest_queue, write_max_mean ... bound the servers "
                    "together)", name, figure_scope_name(a->figure->scope));
    if (parse_op(c, name, &a->op) < 0 || parse_bound(c, OP_NAMES[a->op], a) < 0)
        return -1;
    snprintf(head, cap, "%s %s %s", name, OP_NAMES[a->op], a->bound_text);
    return 0;
}

/* What the kinds require of the over clause. */
static int check_over(cursor *c, const assertion *a)
{
    if (a->kind != ASSERTION_BOUND && !a->over_last_us && !a->over_last_windows)
        return fail(c, "expected 'over last N windows' (or 'over last DURATION') after '%s': "
                    "%s looks at the run's last windows", a->kind == ASSERTION_STEADY ? "steady"
                    : "balance ...", a->kind == ASSERTION_STEADY ? "steady" : "balance");
    if (a->kind == ASSERTION_BOUND && a->over_last_windows)
        return fail(c, "'over last %u window%s' is for balance and steady: a figure takes a "
                    "duration (over last 10m)%s", a->over_last_windows,
                    a->over_last_windows == 1 ? "" : "s",
                    !strcmp(a->figure->name, "steady")
                        ? "; 'steady' with an operator bounds the figure steady, 'steady over "
                          "last N windows' is the steady assertion" : "");
    return 0;
}

int assertion_parse_named(const char *name, const char *text, assertion *out, char *err,
                          size_t errcap)
{
    cursor c = { text, err, errcap };
    char found_buf[SHOWN * 4 + 16];
    memset(out, 0, sizeof *out);
    size_t len = strlen(text);
    if (len >= ASSERTION_TEXT_MAX)
        return fail(&c, "assertion too long: at most %d characters", ASSERTION_TEXT_MAX - 1);
    if (name && strlen(name) >= ASSERTION_TEXT_MAX)
        return fail(&c, "assertion name too long: at most %d characters",
                    ASSERTION_TEXT_MAX - 1);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
            if (!isspace((unsigned char)text[i]))
                return fail(&c, "control byte \\x%02X at character %zu: expected printable "
                            "text", (unsigned char)text[i], i + 1);
    char head[ASSERTION_TEXT_MAX], over[64] = "";
    if (parse_head(&c, out, head, sizeof head) < 0)
        return -1;
    int seen_over = 0, seen_for = 0;
    for (;;) {
        const char *before = c.p;
        skip_space(&c);
        if (!*c.p)
            break;
        size_t wlen = token_len(c.p);
        if (word_is(c.p, wlen, "over") && !seen_over) {
            c.p += wlen;
            seen_over = 1;
            if (parse_over(&c, out, over, sizeof over) < 0)
                return -1;
        } else if (word_is(c.p, wlen, "for") && !seen_for) {
            c.p += wlen;
            seen_for = 1;
            if (parse_for(&c, out) < 0)
                return -1;
        } else if (word_is(c.p, wlen, "over") || word_is(c.p, wlen, "for")) {
            return fail(&c, "a second '%.*s' clause: expected one at most", (int)wlen, c.p);
        } else {
            char prev[SHOWN * 4 + 8];
            while (before > text && isspace((unsigned char)before[-1]))
                before--;
            const char *p = before;
            while (p > text && !isspace((unsigned char)p[-1]))
                p--;
            shown(p, (size_t)(before - p), prev, sizeof prev);
            return fail(&c, "unexpected %s after '%s': expected %s%sthe end", FOUND(&c), prev,
                        seen_over ? "" : seen_for ? "'over last ...' or " : "'over last ...', ",
                        seen_for ? "" : "'for SCHEME' or ");
        }
    }
    if (check_over(&c, out) < 0)
        return -1;
    int n = snprintf(out->text, sizeof out->text, "%s%s%s", head, over[0] ? " " : "", over);
    if (n < 0 || (size_t)n >= sizeof out->text)
        return fail(&c, "assertion too long: at most %d characters", ASSERTION_TEXT_MAX - 1);
    snprintf(out->name, sizeof out->name, "%s", name && name[0] ? name : out->text);
    return 0;
}

int assertion_parse(const char *text, assertion *out, char *err, size_t errcap)
{
    return assertion_parse_named(NULL, text, out, err, errcap);
}

uint64_t assertion_measure_from(const assertion *a, uint64_t end_us, uint64_t measured)
{
    if (a->kind != ASSERTION_BOUND || !a->over_last_us)
        return measured;
    return end_us > a->over_last_us ? end_us - a->over_last_us : 0;
}

/* ---- checking ---- */

static int compare(double v, assertion_op op, double bound)
{
    switch (op) {
    case ASSERT_LT: return v < bound;
    case ASSERT_LE: return v <= bound;
    case ASSERT_GT: return v > bound;
    case ASSERT_GE: return v >= bound;
    case ASSERT_EQ: return v == bound;
    }
    return 0;
}

/* Why a value is what it is (assertion_result.why): a fixed set of
 * phrases, so a check read back from JSON (assertion_why) points at the
 * same ones. */
enum { WHY_FEW_WINDOWS, WHY_SHORT_RUN, WHY_NO_WINDOWS, WHY_NO_WINDOW_STARTS, WHY_NO_READ, WHY_NO_WRITE, WHY_CHANGES, WHY_UNDEFINED_FIGURE, NWHYS };
static const char *const whys[NWHYS] = {
    "the run has fewer windows than asked for",
    "the run is shorter than the duration asked for",
    "the run has no windows",
    "no window starts within the duration asked for",
    "no window among them had a read",
    "no window among them had a write",
    "region count changes and moves",
    "the figure is undefined for this run",
};

/* The windows a balance or steady assertion looks at: [*first, nwindows).
 * Returns NULL, or why there are none to look at. */
static const char *window_span(const assertion *a, const run_result *run, uint32_t *first)
{
    if (a->over_last_windows) {
        if (run->nwindows < a->over_last_windows)
            return whys[WHY_FEW_WINDOWS];
        *first = run->nwindows - a->over_last_windows;
        return NULL;
    }
    if (run->duration_us < a->over_last_us)
        return whys[WHY_SHORT_RUN];
    if (run->window_us == 0 || run->nwindows == 0)
        return whys[WHY_NO_WINDOWS];
    uint64_t start = run->duration_us - a->over_last_us;
    uint64_t w = start / run->window_us + (start % run->window_us != 0);
    if (w >= run->nwindows)
        return whys[WHY_NO_WINDOW_STARTS];
    *first = (uint32_t)w;
    return NULL;
}

/* The worst max/mean across servers among the chosen windows. */
static double check_balance(const assertion *a, const run_result *run, const char **why)
{
    uint32_t first = 0;
    if ((*why = window_span(a, run, &first)) != NULL)
        return NAN;
    /* from the matrix or, a reduced run, its per-window totals and maxima */
    window_stats ws = stats_run_windows(run, a->balance_reads, first);
    if (ws.windows == 0) {
        *why = a->balance_reads ? whys[WHY_NO_READ]
                                : whys[WHY_NO_WRITE];
        return NAN;
    }
    return ws.worst_max_mean;
}

/* Region count changes between the chosen windows' ends (from the count
 * before the first of them) plus moves and reassignments within them. */
static double check_steady(const assertion *a, const run_result *run, const char **why)
{
    uint32_t first = 0;
    if ((*why = window_span(a, run, &first)) != NULL)
        return NAN;
    if (!run->window_regions) {
        *why = whys[WHY_NO_WINDOWS];
        return NAN;
    }
    uint64_t changes = 0;
    uint64_t prev = first ? run->window_regions[first - 1] : run->regions_start;
    for (uint32_t w = first; w < run->nwindows; w++) {
        uint64_t cur = run->window_regions[w];
        changes += cur > prev ? cur - prev : prev - cur;
        prev = cur;
    }
    uint64_t from_us = (uint64_t)first * run->window_us;
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        if ((e->kind == TIMELINE_MOVE || e->kind == TIMELINE_REASSIGN) && e->t_us >= from_us)
            changes++;
    }
    *why = changes ? whys[WHY_CHANGES] : NULL;
    return (double)changes;
}

static assertion_result check_run(const assertion *a, const run_result *run)
{
    assertion_result r = { .assertion = a, .scheme = run->scheme_name, .value = NAN, .samples = 1 };
    switch (a->kind) {
    case ASSERTION_BOUND:
        if (a->over_last_us && run->duration_us < a->over_last_us)
            r.why = whys[WHY_SHORT_RUN];
        else if (isnan(r.value = figure_value(a->figure, run, 0)))
            r.why = whys[WHY_UNDEFINED_FIGURE];
        break;
    case ASSERTION_BALANCE:
        r.value = check_balance(a, run, &r.why);
        break;
    case ASSERTION_STEADY:
        r.value = check_steady(a, run, &r.why);
        break;
    }
    r.passed = !isnan(r.value) && compare(r.value, a->op, a->bound);
    return r;
}

/* Whether a's for clause selects run (every run without one). */
static int selects(const assertion *a, const run_result *run)
{
    if (!a->nschemes)
        return 1;
    for (size_t i = 0; i < a->nschemes; i++)
        if (run->scheme_name && !strcmp(a->schemes[i], run->scheme_name))
            return 1;
    return 0;
}

/* "no scheme 'X' among the runs; the schemes are a, b, c" into err. */
static int unknown_scheme(const char *scheme, const sim_results *res, char *err, size_t errcap)
{
    char s[SHOWN * 4 + 8];
    int n = snprintf(err, errcap, "no scheme '%s' among the runs; the schemes are ",
                     shown(scheme, strlen(scheme), s, sizeof s));
    for (size_t i = 0; i < res->nruns && n >= 0 && (size_t)n < errcap; i++) {
        const char *name = res->runs[i].scheme_name ? res->runs[i].scheme_name : "?";
        n += snprintf(err + n, errcap - (size_t)n, "%s%s", i ? ", " : "",
                      shown(name, strlen(name), s, sizeof s));
    }
    if (!res->nruns && n >= 0 && (size_t)n < errcap)
        snprintf(err + n, errcap - (size_t)n, "none (no run)");
    return -1;
}

int assertion_check(const assertion *a, const sim_results *res, assertion_result *out,
                    char *err, size_t errcap)
{
    for (size_t i = 0; i < a->nschemes; i++) {
        size_t r = 0;
        while (r < res->nruns && !(res->runs[r].scheme_name &&
                                   !strcmp(res->runs[r].scheme_name, a->schemes[i])))
            r++;
        if (r == res->nruns)
            return unknown_scheme(a->schemes[i], res, err, errcap);
    }
    int n = 0;
    for (size_t i = 0; i < res->nruns; i++) {
        const run_result *run = &res->runs[i];
        if (!selects(a, run))
            continue;
        uint64_t from = assertion_measure_from(a, run->duration_us, run->measure_from_us);
        if (run->duration_us >= a->over_last_us && run->measure_from_us != from) {
            snprintf(err, errcap, "%s: the run of %s is measured from %llu us, but the "
                     "assertion needs its last %llu us, measured from %llu us (run it again "
                     "measured from there: assertion_measure_from)", a->name,
                     run->scheme_name ? run->scheme_name : "?",
                     (unsigned long long)run->measure_from_us,
                     (unsigned long long)a->over_last_us, (unsigned long long)from);
            return -1;
        }
        out[n] = check_run(a, run);
        out[n].seed = res->seed;
        out[n].samples = 1;
        out[n].samples_failed = !out[n].passed;
        n++;
    }
    return n;
}

/* How bad r is, as (failed, undefined, how far on the failing side): a
 * larger triple is worse. */
static int worse(const assertion_result *x, const assertion_result *y)
{
    const assertion *b = x->assertion;
    /* each side's own value against the bound: a merged result passes
     * by its majority, while its value is its worst sample's */
    int xp = !isnan(x->value) && compare(x->value, b->op, b->bound);
    int yp = !isnan(y->value) && compare(y->value, b->op, b->bound);
    if (xp != yp)
        return !xp;
    if (isnan(x->value) || isnan(y->value))
        return isnan(x->value) && !isnan(y->value);
    const assertion *a = x->assertion;
    switch (a->op) {
    case ASSERT_LT:
    case ASSERT_LE:
        return x->value > y->value;
    case ASSERT_GT:
    case ASSERT_GE:
        return x->value < y->value;
    case ASSERT_EQ:
        break;
    }
    return fabs(x->value - a->bound) > fabs(y->value - a->bound);
}

void assertion_merge(assertion_result *into, const assertion_result *sample)
{
    assert(into->assertion == sample->assertion);
    assert(into->scheme && sample->scheme && !strcmp(into->scheme, sample->scheme));
    uint32_t samples = into->samples + sample->samples;
    uint32_t failed = into->samples_failed + sample->samples_failed;
    int passed = (uint64_t)failed * 2 < samples; /* the median sample's verdict */
    if (worse(sample, into)) {
        const char *scheme = into->scheme; /* keep the first sample's (borrowed) name */
        *into = *sample;
        into->scheme = scheme;
    }
    into->samples = samples;
    into->samples_failed = failed;
    into->passed = passed;
}

/* ---- describing ---- */

/* v with enough significant digits that the printed number gives the same
 * verdict against the bound as v does, and equals the bound only when v
 * does (5.333, 1.2004 against 1.2, 48213). */
static void format_value(double v, const assertion *a, char *out, size_t cap)
{
    if (isinf(v)) { /* "inf", "-inf": no digits to count (log10 is inf) */
        snprintf(out, cap, "%g", v);
        return;
    }
    int digits = fabs(v) >= 1 ? (int)floor(log10(fabs(v))) + 1 : 1;
    int p = digits > 4 ? (digits < 17 ? digits : 17) : 4;
    for (; p <= 17; p++) {
        snprintf(out, cap, "%.*g", p, v);
        double back = strtod(out, NULL);
        if (compare(back, a->op, a->bound) == compare(v, a->op, a->bound) &&
            (back == a->bound) == (v == a->bound))
            return;
    }
}

void assertion_describe(const assertion_result *r, char *out, size_t cap)
{
    const assertion *a = r->assertion;
    char value[48];
    if (isnan(r->value))
        snprintf(value, sizeof value, "undefined");
    else
        format_value(r->value, a, value, sizeof value);
    int named = strcmp(a->name, a->text) != 0;
    char samples[96] = "";
    if (r->samples > 1)
        snprintf(samples, sizeof samples, " (seed %llu, the worst of %u samples; %u failed%s)",
                 (unsigned long long)r->seed, (unsigned)r->samples, (unsigned)r->samples_failed,
                 r->passed && r->samples_failed ? ", fewer than half" : "");
    snprintf(out, cap, "%s %s%s%s for %s: value %s%s%s%s, bound %s%s",
             r->passed ? "passed" : "FAILED", named ? a->name : "", named ? ": " : "", a->text,
             r->scheme ? r->scheme : "?", value, r->why ? " (" : "", r->why ? r->why : "",
             r->why ? ")" : "", a->bound_text, samples);
}

int assertion_to_check(const assertion_result *r, check_result *out)
{
    memset(out, 0, sizeof *out);
    out->name = strdup(r->assertion->name);
    out->expression = strdup(r->assertion->text);
    out->scheme = strdup(r->scheme ? r->scheme : "");
    if (!out->name || !out->expression || !out->scheme) {
        free(out->name);
        free(out->expression);
        free(out->scheme);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->value = r->value;
    out->bound = r->assertion->bound;
    out->passed = r->passed;
    out->seed = r->seed;
    out->samples = r->samples;
    out->samples_failed = r->samples_failed;
    out->why = assertion_why(r->why);
    return 0;
}

const char *assertion_why(const char *text)
{
    for (size_t i = 0; text && i < NWHYS; i++)
        if (!strcmp(text, whys[i]))
            return whys[i];
    return NULL;
}

int assertion_from_check(const check_result *c, assertion *a, assertion_result *r, char *err,
                         size_t errcap)
{
    if (!c->expression || !c->scheme) {
        snprintf(err, errcap, "a check without an expression or a scheme");
        return -1;
    }
    const char *name = c->name && strcmp(c->name, c->expression) ? c->name : NULL;
    if (assertion_parse_named(name, c->expression, a, err, errcap) < 0)
        return -1;
    memset(r, 0, sizeof *r);
    r->assertion = a;
    r->scheme = c->scheme;
    r->value = c->value;
    r->passed = c->passed;
    r->why = c->why;
    r->seed = c->seed;
    r->samples = c->samples;
    r->samples_failed = c->samples_failed;
    return 0;
}
