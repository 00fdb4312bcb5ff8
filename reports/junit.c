/* junit.c -- CI assertion results as JUnit XML.
 *
 * Design: one pass over the results, printing as it goes; the counts a
 * <testsuite> carries in its attributes are summed first. Nothing is
 * allocated. Every piece of user text (scenario, scheme, assertion name
 * and text) goes through put_text, which escapes for XML and writes the
 * bytes XML 1.0 cannot hold as visible \xNN; assertion names and texts
 * are fixed arrays that a hand-made struct need not NUL-terminate, so
 * they are copied bounded first (field). A bound prints as written
 * (bound_text), else as the shortest decimal that reads back as the same
 * double; a value with six significant digits, or more when six would
 * blur it into its bound (fmt_value), so a failure never reads "value
 * 1.2, bound 1.2".
 * The contract (structure, attribute meanings, what reporters show) is in
 * junit.h.
 */
#include "reports/junit.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"

enum {
    TEXT_ATTR = 1,   /* an attribute value: tab, newline, return as references */
    TEXT_NODOT = 2,  /* '.' as '_' (a classname's parts) */
};

/* A valid UTF-8 sequence written as \xNN: what XML 1.0 forbids
 * (xml_forbids), and DEL, which XML allows but the command line shows as
 * \x7F. */
static int shown_as_hex(const unsigned char *p, size_t n)
{
    return xml_forbids(p, n) || (n == 1 && p[0] == 0x7f);
}

/* One ASCII byte as XML; returns 0 when c needs no escape. */
static int put_ascii_escape(FILE *out, unsigned char c, int flags)
{
    const char *e = NULL;
    switch (c) {
    case '&': e = "&amp;"; break;
    case '<': e = "&lt;"; break;
    case '>': e = "&gt;"; break;
    case '"': e = "&quot;"; break;
    case '\'': e = "&apos;"; break;
    case '\r': e = "&#13;"; break;
    case '\t': e = flags & TEXT_ATTR ? "&#9;" : NULL; break;
    case '\n': e = flags & TEXT_ATTR ? "&#10;" : NULL; break;
    case '.': e = flags & TEXT_NODOT ? "_" : NULL; break;
    default: break;
    }
    if (e)
        fputs(e, out);
    return e != NULL;
}

/* s (NUL-terminated) as XML text or, with TEXT_ATTR, an attribute value. */
static void put_text(FILE *out, const char *s, int flags)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_sequence_len(p);
        if (n == 0 || shown_as_hex(p, n)) {
            /* an invalid byte alone; a forbidden character byte by byte */
            for (size_t i = 0; i < (n ? n : 1); i++)
                fprintf(out, "\\x%02X", p[i]);
            p += n ? n : 1;
        } else if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
        } else {
            if (!put_ascii_escape(out, *p, flags))
                fputc(*p, out);
            p++;
        }
    }
}

/* A fixed array of cap bytes as a string in buf (cap + 1 bytes). */
static const char *field(char *buf, const char *arr, size_t cap)
{
    size_t n = strnlen(arr, cap);
    memcpy(buf, arr, n);
    buf[n] = '\0';
    return buf;
}

/* x as the shortest %g that reads back as x (a bound, as the user wrote it). */
static const char *fmt_exact(char buf[40], double x)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, 40, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return buf;
}

static int order(double a, double b)
{
    return (a > b) - (a < b);
}

/* A value next to its bound: six significant digits, or as many more as
 * it takes for the printed value to stand to the bound as shown
 * (shown_bound) as the value does to the bound (never "value 1.2, bound
 * 1.2" for 1.2000001). x is not NAN. */
static const char *fmt_value(char buf[40], double x, double bound, double shown_bound)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, 40, "%.*g", digits, x);
        double y = strtod(buf, NULL);
        if (y == x || order(y, shown_bound) == order(x, bound))
            break;
    }
    return buf;
}

/* A suite's time as written: negative, NAN or absurd (past 1e15 s) as 0. */
static double clamp_seconds(double s)
{
    return s >= 0 && s <= 1e15 ? s : 0;
}

/* Seconds with three decimals (junit-10.xsd's SUREFIRE_TIME). */
static const char *fmt_seconds(char buf[40], double s)
{
    snprintf(buf, 40, "%.3f", clamp_seconds(s));
    return buf;
}

/* The testcase's name: the text, or "NAME: text" for a named section;
 * " [LABEL]" after it when there is a label. */
static void put_case_name(FILE *out, const assertion *a, const char *label, int flags)
{
    char name[sizeof a->name + 1], text[sizeof a->text + 1];
    field(name, a->name, sizeof a->name);
    field(text, a->text, sizeof a->text);
    if (name[0] && text[0] && strcmp(name, text) != 0) {
        put_text(out, name, flags);
        fputs(": ", out);
        put_text(out, text, flags);
    } else {
        put_text(out, text[0] ? text : name[0] ? name : "(unnamed assertion)", flags);
    }
    if (label) {
        fputs(" [", out);
        put_text(out, label, flags);
        fputc(']', out);
    }
}

/* "value V, bound B": B as written (bound_text), else the shortest form
 * of the bound; a steady assertion's V says what it counts; an undefined
 * V is "undefined", with the reason when the result has one; a result of
 * several samples says which seed V is from and how many failed. */
static void put_verdict(FILE *out, const assertion_result *r, int flags)
{
    const assertion *a = r->assertion;
    char bound[sizeof a->bound_text + 40], v[40];
    field(bound, a->bound_text, sizeof a->bound_text);
    if (!bound[0])
        fmt_exact(bound, a->bound);
    fputs("value ", out);
    if (isnan(r->value)) {
        fputs("undefined", out);
        if (r->why) {
            fputs(" (", out);
            put_text(out, r->why, flags);
            fputc(')', out);
        }
    } else {
        fputs(fmt_value(v, r->value, a->bound, strtod(bound, NULL)), out);
        if (a->kind == ASSERTION_STEADY)
            fputs(" (region count changes and moves)", out);
    }
    fputs(", bound ", out);
    put_text(out, bound, flags);
    if (r->samples > 1)
        fprintf(out, " (seed %llu, the worst of %u samples; %u failed)",
                (unsigned long long)r->seed, (unsigned)r->samples, (unsigned)r->samples_failed);
}

static void put_case(FILE *out, const char *suite, const assertion_result *r, const char *label)
{
    fputs("    <testcase name=\"", out);
    put_case_name(out, r->assertion, label, TEXT_ATTR);
    fputs("\" classname=\"", out);
    put_text(out, suite, TEXT_ATTR | TEXT_NODOT);
    fputc('.', out);
    put_text(out, r->scheme, TEXT_ATTR | TEXT_NODOT);
    fputs("\" time=\"0\"", out);
    if (r->passed) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n      <failure message=\"", out);
    put_verdict(out, r, TEXT_ATTR);
    fputs("\" type=\"assertion\">", out);
    put_case_name(out, r->assertion, label, 0);
    fputs(" for ", out);
    put_text(out, r->scheme, 0);
    fputs(": ", out);
    put_verdict(out, r, 0);
    fputs("</failure>\n    </testcase>\n", out);
}

static size_t count_failures(const junit_suite *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nresults; i++)
        n += !s->results[i].passed;
    return n;
}

static void put_suite(FILE *out, const junit_suite *s)
{
    char t[40];
    int simulated = s->simulated_s > 0 && s->simulated_s <= 1e15;
    fputs("  <testsuite name=\"", out);
    put_text(out, s->name, TEXT_ATTR);
    fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"%s\"",
            s->nresults, count_failures(s), fmt_seconds(t, s->time_s));
    if (s->nresults == 0 && !simulated) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    if (simulated)
        fprintf(out, "    <properties>\n      <property name=\"simulated_time_s\" value=\"%s\"/>\n"
                "    </properties>\n", fmt_seconds(t, s->simulated_s));
    for (size_t i = 0; i < s->nresults; i++)
        put_case(out, s->name, &s->results[i], s->labels ? s->labels[i] : NULL);
    fputs("  </testsuite>\n", out);
}

/* The contract of junit_write's arguments; 0, or -1 with a message. */
static int check_args(const junit_suite *suites, size_t nsuites, char *err, size_t errcap)
{
    if (nsuites > 0 && !suites) {
        snprintf(err, errcap, "junit: %zu suites but no array", nsuites);
        return -1;
    }
    for (size_t i = 0; i < nsuites; i++) {
        const junit_suite *s = &suites[i];
        if (!s->name) {
            snprintf(err, errcap, "junit: suite %zu has no name", i);
            return -1;
        }
        if (s->nresults > 0 && !s->results) {
            snprintf(err, errcap, "junit: suite %zu has %zu results but no array", i,
                     s->nresults);
            return -1;
        }
        for (size_t j = 0; j < s->nresults; j++)
            if (!s->results[j].assertion || !s->results[j].scheme) {
                snprintf(err, errcap, "junit: suite %zu, result %zu has no %s", i, j,
                         s->results[j].assertion ? "scheme" : "assertion");
                return -1;
            }
    }
    return 0;
}

int junit_write(FILE *out, const junit_suite *suites, size_t nsuites, char *err,
                size_t errcap)
{
    if (errcap > 0)
        err[0] = '\0';
    if (check_args(suites, nsuites, err, errcap) != 0)
        return -1;

    size_t tests = 0, failures = 0;
    double time_s = 0;
    char t[40];
    for (size_t i = 0; i < nsuites; i++) {
        tests += suites[i].nresults;
        failures += count_failures(&suites[i]);
        time_s += clamp_seconds(suites[i].time_s);
    }
    errno = 0;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<testsuites name=\"regionsim\" tests=\"%zu\" failures=\"%zu\" errors=\"0\""
            " time=\"%s\"", tests, failures, fmt_seconds(t, time_s));
    if (nsuites == 0) {
        fputs("/>\n", out);
    } else {
        fputs(">\n", out);
        for (size_t i = 0; i < nsuites; i++)
            put_suite(out, &suites[i]);
        fputs("</testsuites>\n", out);
    }
    if (fflush(out) != 0 || ferror(out)) {
        snprintf(err, errcap, "junit: cannot write the report: %s",
                 errno ? strerror(errno) : "write error");
        return -1;
    }
    return 0;
}
