/* sweep.c -- a scenario file's [sweep] section and each point's scenario.
 *
 * Design: a sweep works on the file's text, not on a parsed scenario.
 * sweep_load reads the file once, takes the [sweep] section out of it
 * (its lines become empty lines, so every other line keeps its number)
 * and checks the variables; each point's scenario is then the text with
 * the point's values put in for `$NAME` / `${NAME}`, read by the ordinary
 * scenario reader (scenario_load_text), then the setting variables set as
 * options are (scenario_set), then checked as a run is (scenario_ycsb_build,
 * scenario_validate). So a point is exactly the scenario file a user
 * would get by writing the values in by hand, every existing check applies
 * to it, and its messages keep their FILE:LINE, with the point put after
 * it. The trade-off: each point reads the file again (a few hundred lines:
 * microseconds, next to a run's seconds), and the [sweep] lines are
 * scanned by a small reader of our own, which knows only what [sweep]
 * needs: headers, comments (`;`, `#` at a line's start, ` ;` after a
 * value) and `key = value`. Anything else in the file is left for the
 * scenario reader to judge at each point.
 *
 * Where substitution applies: the value of every `key = value` line
 * outside [sweep] (the text after the first `=`, up to an inline ` ;`
 * comment). Section headers, keys and comments are never changed, so a
 * point has the same sections, hence the same schemes, as every other.
 * `$$` is a literal `$`; a `$` before anything but a name, `{` or `$` is
 * refused, as is a `$NAME` that names no variable.
 *
 * Values: a comma list of tokens (numbers, durations, sizes, names: the
 * setting or expression they land in judges them), or one integer range
 * `A..B` / `A..B step S` (0 <= A <= B < 2^64, S >= 1, step 1 by default),
 * expanded here. At most SWEEP_MAX_POINTS points in all, counted without
 * overflow (a range's length is (B - A) / S + 1, checked before anything
 * is allocated; the product is checked factor by factor).
 *
 * Identity: the SHA-256 of the text as read is kept (text_sha256), so that
 * a planned point's job can say which scenario its result is of
 * (sweep_point_digest: the file's hash and the job's options), and merge
 * can refuse a result of another (planners/sweep_merge.c).
 */
#include "scenario/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sha2.h>
#include <sys/stat.h>

#include "scenario/units.h"

#define SWEEP_PRINTF(f, a) __attribute__((format(printf, f, a)))

static int fail(const sweep *sw, int line, char *err, size_t errcap, const char *fmt, ...)
    SWEEP_PRINTF(5, 6);
static int fail(const sweep *sw, int line, char *err, size_t errcap, const char *fmt, ...)
{
    int n = line > 0 ? snprintf(err, errcap, "%s:%d: ", sw->shown_path, line)
                     : snprintf(err, errcap, "%s: ", sw->shown_path);
    if (n >= 0 && (size_t)n < errcap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errcap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_'; }

/* A growable byte buffer. */
typedef struct buf {
    char *data;
    size_t len, cap;
    int oom;
} buf;

static void buf_put(buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->oom = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static size_t var_index(const sweep *sw, const char *name, size_t len)
{
    for (size_t v = 0; v < sw->nvars; v++)
        if (strlen(sw->vars[v].name) == len && !memcmp(sw->vars[v].name, name, len))
            return v;
    return SIZE_MAX;
}

/* The end of a value: before an inline comment (" ;") or the line's end. */
static size_t value_end(const char *s, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (s[i] == ';' && isspace((unsigned char)s[i - 1]))
            return i - 1;
    return n;
}

/* Substitutes the variables of point p (p == SIZE_MAX: only checks, and
 * marks the variables referenced in used[]) in value s[0..n) of line
 * `line` into out. Returns 0, or -1 with a message. */
static int substitute_value(const sweep *sw, size_t p, const char *s, size_t n, int line,
                            int *used, buf *out, char *err, size_t errcap)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] != '$') {
            size_t j = i;
            while (j < n && s[j] != '$')
                j++;
            buf_put(out, s + i, j - i);
            i = j;
            continue;
        }
        if (i + 1 < n && s[i + 1] == '$') {
            buf_put(out, "$", 1);
            i += 2;
            continue;
        }
        size_t start = i + 1, end;
        int braced = start < n && s[start] == '{';
        if (braced)
            start++;
        end = start;
        if (end < n && is_name_start((unsigned char)s[end]))
            while (end < n && is_name_char((unsigned char)s[end]))
                end++;
        if (end == start || (braced && (end >= n || s[end] != '}'))) {
            char shown[40];
            size_t m = n - i < 20 ? n - i : 20;
            memcpy(shown, s + i, m);
            shown[m] = '\0';
            char esc[100];
            escape_text(shown, 30, esc, sizeof esc);
            return fail(sw, line, err, errcap,
                        "expected a sweep variable after '$' ($NAME or ${NAME}; $$ for a $), "
                        "found '%s'", esc);
        }
        size_t v = var_index(sw, s + start, end - start);
        if (v == SIZE_MAX) {
            char name[SWEEP_VALUE_MAX + 4], esc[120];
            size_t m = end - start < SWEEP_VALUE_MAX ? end - start : SWEEP_VALUE_MAX;
            memcpy(name, s + start, m);
            name[m] = '\0';
            escape_text(name, 60, esc, sizeof esc);
            char known[SWEEP_MAX_VARS * (SWEEP_VALUE_MAX + 2)] = "";
            for (size_t k = 0; k < sw->nvars; k++) {
                strcat(known, k ? ", " : "");
                strcat(known, sw->vars[k].name);
            }
            return fail(sw, line, err, errcap,
                        "unknown sweep variable '$%s'; expected one of the [sweep] section's: %s",
                        esc, known);
        }
        if (used)
            used[v] = 1;
        if (p != SIZE_MAX) {
            const char *val = sweep_value(sw, p, v);
            buf_put(out, val, strlen(val));
        }
        i = end + (braced ? 1 : 0);
    }
    return 0;
}

/* One line of the file (without its end): a header "[name]" sets
 * *section; a key line outside [sweep] gets its value substituted. The
 * line goes to out (substituted), or, in [sweep], an empty line does. */
typedef enum line_kind { LINE_OTHER, LINE_HEADER, LINE_KEY } line_kind;

static line_kind classify(const char *s, size_t n, size_t *lead)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    *lead = i;
    if (i == n || s[i] == ';' || s[i] == '#')
        return LINE_OTHER;
    if (s[i] == '[')
        return LINE_HEADER;
    return memchr(s + i, '=', n - i) ? LINE_KEY : LINE_OTHER;
}

/* Whether header line s[lead..n) is "[sweep]" (spaces allowed inside the
 * brackets and after them; a malformed header is the reader's to refuse). */
static int is_sweep_header(const char *s, size_t n, size_t lead)
{
    const char *close = memchr(s + lead, ']', n - lead);
    if (!close)
        return 0;
    const char *a = s + lead + 1, *b = close;
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    return b - a == 5 && !memcmp(a, "sweep", 5);
}

/* Walks the text line by line: p == SIZE_MAX checks the references (used[]
 * marks them); else writes point p's text into out. */
static int walk_text(const sweep *sw, size_t p, int *used, buf *out, char *err, size_t errcap)
{
    const char *s = sw->text, *end = sw->text + sw->len;
    int line = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        line++;
        size_t lead;
        if (classify(s, n, &lead) == LINE_KEY) {
            const char *eq = memchr(s, '=', n);
            size_t head = (size_t)(eq - s) + 1;
            size_t vend = head + value_end(s + head, n - head);
            buf_put(out, s, head);
            if (substitute_value(sw, p, s + head, vend - head, line, used, out, err, errcap) < 0)
                return -1;
            buf_put(out, s + vend, n - vend);
        } else {
            buf_put(out, s, n);
        }
        if (nl)
            buf_put(out, "\n", 1);
        s += n + (nl ? 1 : 0);
    }
    if (out->oom)
        return fail(sw, 0, err, errcap, "out of memory");
    return 0;
}

/* Parses "A..B" or "A..B step S" into var. Returns 1 if text is a range
 * and was expanded, 0 if it is no range, -1 with a message. */
static int parse_range(const sweep *sw, sweep_var *var, const char *text, char *err,
                       size_t errcap)
{
    const char *dots = strstr(text, "..");
    if (!dots)
        return 0;
    char a[SWEEP_VALUE_MAX], b[SWEEP_VALUE_MAX], word[SWEEP_VALUE_MAX], st[SWEEP_VALUE_MAX];
    char extra[2];
    char shown[120];
    escape_text(text, 60, shown, sizeof shown);
    size_t alen = (size_t)(dots - text);
    if (alen >= sizeof a)
        return fail(sw, var->line, err, errcap,
                    "[sweep] %s: expected an integer range A..B or A..B step S, found '%s'",
                    var->name, shown);
    memcpy(a, text, alen);
    a[alen] = '\0';
    int got = sscanf(dots + 2, "%63s %63s %63s %1s", b, word, st, extra);
    uint64_t lo, hi, step = 1;
    if (got < 1 || units_parse_count(a, &lo) < 0 || units_parse_count(b, &hi) < 0 ||
        (got >= 2 && (strcmp(word, "step") || got != 3 || units_parse_count(st, &step) < 0)) ||
        isspace((unsigned char)dots[2]) || (alen && isspace((unsigned char)a[alen - 1])))
        return fail(sw, var->line, err, errcap,
                    "[sweep] %s: expected an integer range A..B or A..B step S, found '%s'",
                    var->name, shown);
    if (lo > hi)
        return fail(sw, var->line, err, errcap,
                    "[sweep] %s: expected a range whose start is at most its end, found '%s'",
                    var->name, shown);
    if (step == 0)
        return fail(sw, var->line, err, errcap,
                    "[sweep] %s: expected a step of 1 or more, found '%s'", var->name, shown);
    uint64_t count = (hi - lo) / step + 1; /* no overflow: (hi - lo) / step < 2^64 - 1 */
    if ((hi - lo) / step >= SWEEP_MAX_POINTS)
        return fail(sw, var->line, err, errcap,
                    "[sweep] %s: expected at most %d values, found '%s' (more)", var->name,
                    SWEEP_MAX_POINTS, shown);
    var->values = malloc((size_t)count * sizeof *var->values);
    if (!var->values)
        return fail(sw, var->line, err, errcap, "out of memory");
    for (uint64_t k = 0; k < count; k++)
        snprintf(var->values[k], SWEEP_VALUE_MAX, "%llu", (unsigned long long)(lo + k * step));
    var->nvalues = (size_t)count;
    return 1;
}

/* Parses a comma list into var. */
static int parse_list(const sweep *sw, sweep_var *var, const char *text, char *err,
                      size_t errcap)
{
    size_t n = 1;
    for (const char *c = text; *c; c++)
        n += *c == ',';
    if (n > SWEEP_MAX_POINTS)
        return fail(sw, var->line, err, errcap, "[sweep] %s: expected at most %d values",
                    var->name, SWEEP_MAX_POINTS);
    var->values = calloc(n, sizeof *var->values);
    if (!var->values)
        return fail(sw, var->line, err, errcap, "out of memory");
    const char *s = text;
    for (size_t k = 0; k < n; k++) {
        const char *comma = strchr(s, ',');
        const char *e = comma ? comma : s + strlen(s);
        while (s < e && isspace((unsigned char)*s))
            s++;
        const char *t = e;
        while (t > s && isspace((unsigned char)t[-1]))
            t--;
        size_t len = (size_t)(t - s);
        char shown[120];
        escape_text(text, 60, shown, sizeof shown);
        if (len == 0)
            return fail(sw, var->line, err, errcap,
                        "[sweep] %s: expected a value %s, found '%s'", var->name,
                        k == 0 && !comma ? "(a comma list or a range A..B step S)"
                                         : "between every two commas",
                        shown);
        if (len >= SWEEP_VALUE_MAX)
            return fail(sw, var->line, err, errcap,
                        "[sweep] %s: expected values of at most %d characters, found '%s'",
                        var->name, SWEEP_VALUE_MAX - 1, shown);
        memcpy(var->values[k], s, len);
        var->values[k][len] = '\0';
        for (size_t i = 0; i < len; i++)
            if (var->values[k][i] == '$' || iscntrl((unsigned char)var->values[k][i]))
                return fail(sw, var->line, err, errcap,
                            "[sweep] %s: expected plain values (no '$', no control "
                            "characters), found '%s'", var->name, shown);
        s = e + 1;
    }
    var->nvalues = n;
    return 0;
}

/* Whether name is a scenario setting that a sweep may set. */
static int is_setting(const char *name)
{
    if (!strcmp(name, "name"))
        return 0;
    for (size_t i = 0; i < scenario_setting_count(); i++)
        if (!strcmp(scenario_setting_doc(i).key, name))
            return 1;
    return 0;
}

/* One `key = value` line of [sweep]. */
static int add_var(sweep *sw, const char *s, size_t n, size_t lead, int line, char *err,
                   size_t errcap)
{
    const char *eq = memchr(s, '=', n);
    const char *k = s + lead, *ke = eq;
    while (ke > k && isspace((unsigned char)ke[-1]))
        ke--;
    size_t klen = (size_t)(ke - k);
    char key[SWEEP_VALUE_MAX + 4], shown[120];
    size_t m = klen < SWEEP_VALUE_MAX ? klen : SWEEP_VALUE_MAX;
    memcpy(key, k, m);
    key[m] = '\0';
    escape_text(key, 60, shown, sizeof shown);
    int ok = klen > 0 && klen < SWEEP_VALUE_MAX && is_name_start((unsigned char)k[0]);
    for (size_t i = 0; ok && i < klen; i++)
        ok = is_name_char((unsigned char)k[i]);
    if (!ok)
        return fail(sw, line, err, errcap,
                    "[sweep]: expected a variable name (a letter or '_', then letters, digits, "
                    "'_'; at most %d), found '%s'", SWEEP_VALUE_MAX - 1, shown);
    if (var_index(sw, key, klen) != SIZE_MAX)
        return fail(sw, line, err, errcap, "[sweep]: variable '%s' is already defined", shown);
    if (sw->nvars == SWEEP_MAX_VARS)
        return fail(sw, line, err, errcap, "[sweep]: at most %d variables, found one more: '%s'",
                    SWEEP_MAX_VARS, shown);
    sweep_var *var = &sw->vars[sw->nvars++];
    memset(var, 0, sizeof *var);
    memcpy(var->name, key, klen + 1);
    var->line = line;
    var->is_setting = is_setting(key);
    const char *v = eq + 1;
    size_t vlen = value_end(v, n - (size_t)(v - s));
    while (vlen && isspace((unsigned char)*v))
        v++, vlen--;
    while (vlen && isspace((unsigned char)v[vlen - 1]))
        vlen--;
    char *text = malloc(vlen + 1);
    if (!text)
        return fail(sw, line, err, errcap, "out of memory");
    memcpy(text, v, vlen);
    text[vlen] = '\0';
    int rc = parse_range(sw, var, text, err, errcap);
    if (rc == 0)
        rc = parse_list(sw, var, text, err, errcap);
    free(text);
    return rc < 0 ? -1 : 0;
}

/* Takes the [sweep] lines out of sw->text (blanking them) into the
 * variables. */
static int read_sweep_section(sweep *sw, char *err, size_t errcap)
{
    char *s = sw->text, *end = sw->text + sw->len;
    int line = 0, in_sweep = 0, seen = 0;
    while (s < end) {
        char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        line++;
        size_t lead;
        line_kind kind = classify(s, n, &lead);
        if (kind == LINE_HEADER) {
            in_sweep = is_sweep_header(s, n, lead);
            seen |= in_sweep;
        } else if (in_sweep && kind == LINE_KEY && add_var(sw, s, n, lead, line, err, errcap) < 0) {
            return -1;
        } else if (in_sweep && kind == LINE_OTHER && lead < n && s[lead] != ';' &&
                   s[lead] != '#') {
            char shown[120], text[80];
            size_t m = n - lead < 60 ? n - lead : 60;
            memcpy(text, s + lead, m);
            text[m] = '\0';
            escape_text(text, 60, shown, sizeof shown);
            return fail(sw, line, err, errcap, "[sweep]: expected 'NAME = VALUES', found '%s'",
                        shown);
        }
        if (in_sweep && n) { /* the reader sees a comment: line numbers kept */
            memset(s, ' ', n);
            s[0] = ';';
        }
        s += n + (nl ? 1 : 0);
    }
    if (!seen)
        return fail(sw, 0, err, errcap,
                    "expected a [sweep] section naming the variables to sweep (e.g. "
                    "'buckets = 4, 8, 16'); use compare for a file without one");
    if (sw->nvars == 0)
        return fail(sw, 0, err, errcap, "[sweep]: expected at least one 'NAME = VALUES'");
    size_t points = 1;
    for (size_t v = 0; v < sw->nvars; v++) {
        if (points > SWEEP_MAX_POINTS / sw->vars[v].nvalues)
            return fail(sw, sw->vars[v].line, err, errcap,
                        "[sweep] %s: expected at most %d points in all, found more with its %zu "
                        "values", sw->vars[v].name, SWEEP_MAX_POINTS, sw->vars[v].nvalues);
        points *= sw->vars[v].nvalues;
    }
    sw->npoints = points;
    return 0;
}

void sweep_release(sweep *sw)
{
    for (size_t v = 0; v < sw->nvars; v++)
        free(sw->vars[v].values);
    free(sw->text);
    free(sw->path);
    memset(sw, 0, sizeof *sw);
}

void sweep_text_sha256(const char *text, size_t len, unsigned char out[32])
{
    SHA2_CTX ctx;
    SHA256Init(&ctx);
    SHA256Update(&ctx, (const uint8_t *)text, len);
    SHA256Final(out, &ctx);
}

/* s into the hash as "LEN:" and its bytes. */
static void digest_string(SHA2_CTX *ctx, const char *s, size_t len)
{
    char head[32];
    int n = snprintf(head, sizeof head, "%zu:", len);
    SHA256Update(ctx, (const uint8_t *)head, (size_t)n);
    SHA256Update(ctx, (const uint8_t *)s, len);
}

void sweep_point_digest(const unsigned char text_sha256[32], const char *const *args,
                        size_t nargs, char out[SWEEP_DIGEST_HEX])
{
    static const char tag[] = "regionsim point 1\n";
    SHA2_CTX ctx;
    SHA256Init(&ctx);
    SHA256Update(&ctx, (const uint8_t *)tag, sizeof tag - 1);
    SHA256Update(&ctx, text_sha256, 32);
    for (size_t i = 0; i < nargs; i++)
        digest_string(&ctx, args[i], strlen(args[i]));
    unsigned char d[32];
    SHA256Final(d, &ctx);
    for (size_t i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int sweep_load_text(sweep *sw, const char *path, const char *text, size_t len, char *err,
                    size_t errcap)
{
    memset(sw, 0, sizeof *sw);
    sweep_text_sha256(text, len, sw->text_sha256);
    escape_text(path, sizeof sw->shown_path - 1, sw->shown_path, sizeof sw->shown_path);
    sw->path = strdup(path);
    sw->text = malloc(len + 1);
    if (!sw->path || !sw->text) {
        sweep_release(sw);
        return fail(sw, 0, err, errcap, "out of memory");
    }
    memcpy(sw->text, text, len);
    sw->text[len] = '\0';
    sw->len = len;
    int used[SWEEP_MAX_VARS] = { 0 };
    buf scratch = { 0 };
    int rc = read_sweep_section(sw, err, errcap);
    if (rc == 0)
        rc = walk_text(sw, SIZE_MAX, used, &scratch, err, errcap);
    free(scratch.data);
    for (size_t v = 0; rc == 0 && v < sw->nvars; v++)
        if (!used[v] && !sw->vars[v].is_setting)
            rc = fail(sw, sw->vars[v].line, err, errcap,
                      "[sweep] %s: expected a scenario setting's name or a variable used as "
                      "$%s in a value; found neither", sw->vars[v].name, sw->vars[v].name);
    if (rc < 0) {
        char keep[161];
        memcpy(keep, sw->shown_path, sizeof keep);
        sweep_release(sw);
        memcpy(sw->shown_path, keep, sizeof keep);
        return -1;
    }
    return 0;
}

int sweep_load(sweep *sw, const char *path, char *err, size_t errcap)
{
    memset(sw, 0, sizeof *sw);
    escape_text(path, sizeof sw->shown_path - 1, sw->shown_path, sizeof sw->shown_path);
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) < 0) {
        fail(sw, 0, err, errcap, "cannot open the scenario file: %s", strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        fclose(f);
        return fail(sw, 0, err, errcap, "is a directory; expected a scenario file");
    }
    buf b = { 0 };
    char block[4096];
    size_t n;
    while ((n = fread(block, 1, sizeof block, f)) > 0 && b.len < (64u << 20))
        buf_put(&b, block, n);
    int bad = ferror(f) || b.oom || b.len >= (64u << 20);
    fclose(f);
    if (bad) {
        free(b.data);
        return fail(sw, 0, err, errcap, "cannot read the scenario file (or it is over 64 MiB)");
    }
    int rc = sweep_load_text(sw, path, b.data ? b.data : "", b.len, err, errcap);
    free(b.data);
    return rc;
}

const char *sweep_value(const sweep *sw, size_t p, size_t v)
{
    size_t stride = 1;
    for (size_t k = sw->nvars; k-- > v + 1;)
        stride *= sw->vars[k].nvalues;
    return sw->vars[v].values[(p / stride) % sw->vars[v].nvalues];
}

/* text as a plain decimal number (sweep_value_numbers' first kind), or
 * -1: an optional '-', digits with an optional fraction, an optional
 * exponent, nothing else, finite. */
static int plain_number(const char *text, double *out)
{
    const char *c = text + (text[0] == '-');
    size_t digits = 0;
    for (; *c >= '0' && *c <= '9'; c++)
        digits++;
    if (*c == '.')
        for (c++; *c >= '0' && *c <= '9'; c++)
            digits++;
    if (!digits)
        return -1;
    if (*c == 'e' || *c == 'E') {
        c += c[1] == '-' || c[1] == '+' ? 2 : 1;
        if (*c < '0' || *c > '9')
            return -1;
        while (*c >= '0' && *c <= '9')
            c++;
    }
    if (*c)
        return -1;
    *out = strtod(text, NULL);
    return isfinite(*out) ? 0 : -1;
}

/* Variable v's values (every point's) as numbers of one kind into
 * numbers, or -1. */
static int variable_numbers(const char *const *values, size_t npoints, size_t nvars, size_t v,
                            double *numbers)
{
    for (int kind = 0; kind < 3; kind++) {
        size_t p = 0;
        for (; p < npoints; p++) {
            const char *text = values[p * nvars + v];
            uint64_t n;
            double *out = &numbers[p * nvars + v];
            if (kind == 0 ? plain_number(text, out) < 0
                : kind == 1 ? units_parse_duration(text, &n) < 0
                            : units_parse_size(text, &n) < 0)
                break;
            if (kind)
                *out = (double)n;
        }
        if (p == npoints)
            return 0;
    }
    return -1;
}

void sweep_value_numbers(const char *const *values, size_t npoints, size_t nvars,
                         double *numbers)
{
    for (size_t v = 0; v < nvars; v++)
        if (variable_numbers(values, npoints, nvars, v, numbers) < 0)
            for (size_t p = 0; p < npoints; p++)
                numbers[p * nvars + v] = NAN;
}

const char *sweep_point_label(const sweep *sw, size_t p, char *out, size_t cap)
{
    size_t at = 0;
    if (cap)
        out[0] = '\0';
    for (size_t v = 0; v < sw->nvars && at < cap; v++) {
        int n = snprintf(out + at, cap - at, "%s%s=%s", v ? " " : "", sw->vars[v].name,
                         sweep_value(sw, p, v));
        if (n < 0)
            break;
        at += (size_t)n;
    }
    return out;
}

int sweep_substitute(const sweep *sw, size_t p, char **out, size_t *outlen, char *err,
                     size_t errcap)
{
    buf b = { 0 };
    if (walk_text(sw, p, NULL, &b, err, errcap) < 0) {
        free(b.data);
        return -1;
    }
    if (!b.data) {
        b.data = calloc(1, 1);
        if (!b.data)
            return fail(sw, 0, err, errcap, "out of memory");
    }
    *out = b.data;
    *outlen = b.len;
    return 0;
}

/* The line of the `key =` of the file's [scheme LABEL] for a validator's
 * message "scheme 'LABEL'...", which names no line; 0 when there is none
 * (a preset or an option's scheme). */
static int scheme_line(const sweep *sw, const char *msg)
{
    if (strncmp(msg, "scheme '", 8) != 0)
        return 0;
    const char *label = msg + 8, *q = strchr(label, '\'');
    if (!q)
        return 0;
    size_t llen = (size_t)(q - label);
    const char *s = sw->text, *end = sw->text + sw->len;
    int line = 0, in_it = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s), lead;
        line++;
        line_kind kind = classify(s, n, &lead);
        if (kind == LINE_HEADER) {
            const char *close = memchr(s + lead, ']', n - lead);
            in_it = close && (size_t)(close - s) - lead == 8 + llen &&
                    !memcmp(s + lead + 1, "scheme ", 7) && !memcmp(s + lead + 8, label, llen);
        } else if (in_it && kind == LINE_KEY) {
            const char *k = s + lead;
            if (n - lead >= 3 && !memcmp(k, "key", 3) &&
                (k[3] == '=' || isspace((unsigned char)k[3])))
                return line;
        }
        s += n + (nl ? 1 : 0);
    }
    return 0;
}

/* msg (a reader's or validator's message) with the point put in: after
 * its "FILE:LINE: " when it starts so, else after "FILE:LINE: " of the
 * scheme it names, else after "FILE: ". */
static void name_point(const sweep *sw, size_t p, const char *msg, char *err, size_t errcap)
{
    char label[512];
    sweep_point_label(sw, p, label, sizeof label);
    size_t plen = strlen(sw->shown_path);
    if (!strncmp(msg, sw->shown_path, plen) && msg[plen] == ':') {
        const char *q = msg + plen + 1;
        while (isdigit((unsigned char)*q))
            q++;
        if (q > msg + plen + 1 && q[0] == ':' && q[1] == ' ') {
            snprintf(err, errcap, "%.*s at %s: %s", (int)(q + 1 - msg), msg, label, q + 2);
            return;
        }
        if (msg[plen + 1] == ' ') {
            snprintf(err, errcap, "%s: at %s: %s", sw->shown_path, label, msg + plen + 2);
            return;
        }
    }
    int line = scheme_line(sw, msg);
    if (line)
        snprintf(err, errcap, "%s:%d: at %s: %s", sw->shown_path, line, label, msg);
    else
        snprintf(err, errcap, "%s: at %s: %s", sw->shown_path, label, msg);
}

int sweep_point_scenario(const sweep *sw, size_t p, const char *const *keys,
                         const char *const *values, size_t nset, scenario *sc, char *err,
                         size_t errcap)
{
    char msg[1024];
    scenario_defaults(sc);
    char *text;
    size_t len;
    if (sweep_substitute(sw, p, &text, &len, err, errcap) < 0)
        return -1;
    int rc = scenario_load_text(sc, sw->path, text, len, msg, sizeof msg);
    free(text);
    for (size_t i = 0; rc == 0 && i < nset; i++) {
        char why[768];
        int set = scenario_set(sc, NULL, keys[i], values[i], why, sizeof why);
        if (set == -2) {
            snprintf(err, errcap, "unknown option '--%s'", keys[i]);
            return -1;
        }
        if (set < 0) {
            snprintf(err, errcap, "--%s: %s", keys[i], why);
            return -1;
        }
    }
    for (size_t v = 0; rc == 0 && v < sw->nvars; v++) {
        if (!sw->vars[v].is_setting)
            continue;
        char why[768];
        if (scenario_set(sc, NULL, sw->vars[v].name, sweep_value(sw, p, v), why, sizeof why) < 0) {
            snprintf(msg, sizeof msg, "%s:%d: [sweep] %s: %s", sw->shown_path, sw->vars[v].line,
                     sw->vars[v].name, why);
            rc = -1;
        }
    }
    if (rc == 0)
        rc = scenario_ycsb_build(sc, msg, sizeof msg);
    if (rc == 0)
        rc = scenario_validate(sc, msg, sizeof msg);
    if (rc < 0) {
        name_point(sw, p, msg, err, errcap);
        return -1;
    }
    return 0;
}
