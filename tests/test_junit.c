/* test_junit.c -- the JUnit XML report: counts, names, failure messages,
 * escaping of hostile text, empty suites, determinism, errors; and the
 * documents checked by xmllint: well-formed, read back through XPath to
 * the same text, and valid against a published JUnit schema (Jenkins'
 * jenkins-junit.xsd as `sh setup.sh --tests` fetches it, or the xUnit
 * plugin's junit-10.xsd), which rejects deliberately invalid documents.
 *
 * Usage: test_junit [DATA_DIR] [--xmllint | --schema]: three meson tests.
 *  - junit: the checks on the bytes; they need nothing.
 *  - junit_xmllint (--xmllint): xmllint reads the documents (well-formed,
 *    the text read back through XPath); needs xmllint (Debian package
 *    libxml2-utils, `sh setup.sh --tests`).
 *  - junit_schema (--schema): valid against the schema, which rejects the
 *    invalid documents; needs xmllint and the schema, DATA_DIR/junit.xsd
 *    or the file $REGIONSIM_JUNIT_XSD names. It is not in the repository
 *    (tests/data/junit.md says where it comes from; `sh setup.sh --tests`
 *    fetches it).
 * Without what it needs, junit_xmllint or junit_schema exits 77 with the
 * reason, which meson counts as skipped (tests/support.h, test_cannot_run),
 * or fails where the check is required: under CI (CI set and not "false"
 * or "0"), or when $REGIONSIM_REQUIRE_JUNIT_XSD is set and not empty. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <math.h>

#include "reports/format.h"
#include "reports/junit.h"
#include "tests/support.h"

/* What every test may need: where the schema is, if anywhere. */
typedef struct env {
    char xsd[4096];     /* "" when there is none */
    char tried[4096];   /* where it was looked for, and why it was not taken */
} env;

/* Under CI, or with $REGIONSIM_REQUIRE_JUNIT_XSD set and not empty: the
 * schema and xmllint must be there; the checks that need them fail
 * rather than skip without them. */
static int schema_required(void)
{
    const char *v = getenv("REGIONSIM_REQUIRE_JUNIT_XSD");
    return (v && *v) || test_in_ci();
}

/* ---- building results by hand ---- */

static void make_assertion(assertion *a, const char *name, const char *text, double bound)
{
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->text, sizeof a->text, "%s", text);
    a->kind = ASSERTION_BOUND;
    a->op = ASSERT_LE;
    a->bound = bound;
}

static assertion_result result(const assertion *a, const char *scheme, double value, int passed)
{
    assertion_result r = { .assertion = a, .scheme = scheme, .value = value, .passed = passed };
    return r;
}

/* ---- rendering and reading back ---- */

/* The document junit_write makes (malloc'd); the call must succeed. */
static char *render(const junit_suite *suites, size_t n)
{
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    int rc = junit_write(f, suites, n, err, sizeof err);
    assert_int_equal(fclose(f), 0);
    if (rc != 0) fail_msg("junit_write: %s", err);
    assert_string_equal(err, "");
    return buf;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void assert_xml_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle)) fail_msg("missing: %s\nin:\n%s", needle, hay);
}

/* xmllint's exit status on the document (0: accepted; 3: well-formed
 * but not valid against the schema; 5: the schema did not compile; -1:
 * xmllint did not exit normally): well-formed, and valid against the
 * schema xsd unless it is NULL. Its complaints go to stderr, which the
 * test log keeps. */
static int xmllint(const char *xml, const char *xsd)
{
    const char *path = test_temp_file("junit", xml);
    char cmd[8300];
    if (xsd)
        snprintf(cmd, sizeof cmd, "xmllint --noout --schema '%s' '%s'", xsd, path);
    else
        snprintf(cmd, sizeof cmd, "xmllint --noout '%s'", path);
    int status = system(cmd);
    unlink(path);
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The string value of XPath expression expr (no single quotes) in the
 * document, as xmllint reads it; malloc'd. */
static char *xpath(const char *xml, const char *expr)
{
    const char *path = test_temp_file("junit", xml);
    char cmd[512], *buf = NULL;
    size_t len = 0, cap = 0;
    snprintf(cmd, sizeof cmd, "xmllint --xpath 'string(%s)' '%s'", expr, path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int c;
    while ((c = fgetc(p)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? 2 * cap : 256;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        buf[len++] = (char)c;
    }
    int status = pclose(p);
    unlink(path);
    if (status != 0) fail_msg("xmllint --xpath failed (status %d)", status);
    if (!buf) buf = calloc(1, 1);
    assert_non_null(buf);
    if (len > 0 && buf[len - 1] == '\n') len--; /* xmllint ends the value with one */
    buf[len] = '\0';
    return buf;
}

/* Every byte of the document is UTF-8 that XML 1.0 allows, and no control
 * byte but newline and tab appears raw (return only as &#13;). */
static void assert_clean_utf8(const char *xml)
{
    const unsigned char *p = (const unsigned char *)xml;
    while (*p) {
        size_t n = utf8_sequence_len(p);
        if (n == 0) fail_msg("not UTF-8 at byte %zu", (size_t)(p - (const unsigned char *)xml));
        if (n == 1 && ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f))
            fail_msg("raw control byte 0x%02x at %zu", *p, (size_t)(p - (const unsigned char *)xml));
        if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)
            fail_msg("a non-character at %zu", (size_t)(p - (const unsigned char *)xml));
        p += n;
    }
}

/* ---- fixtures: the documents every xmllint test checks ---- */

enum { DOC_COUNTS, DOC_HOSTILE, DOC_VALUES, DOC_EMPTY_SUITE, DOC_NO_SUITES, DOCS };

/* Three assertions over two schemes of "ci", two of them failing, and one
 * named one over one scheme of "growth". */
typedef struct counts_fixture {
    assertion a[4];
    assertion_result ci[6], growth[1];
    junit_suite suites[2];
} counts_fixture;

static void counts_init(counts_fixture *f)
{
    make_assertion(&f->a[0], "write_max_mean <= 1.2", "write_max_mean <= 1.2", 1.2);
    make_assertion(&f->a[1], "p99_latency_us < 50000", "p99_latency_us < 50000", 50000);
    f->a[1].op = ASSERT_LT;
    make_assertion(&f->a[2], "regions >= 4", "regions >= 4", 4);
    f->a[2].op = ASSERT_GE;
    make_assertion(&f->a[3], "balanced", "write_max_mean <= 2 over last 10m", 2);
    f->ci[0] = result(&f->a[0], "monotonic", 16.0 / 3, 0);
    f->ci[1] = result(&f->a[0], "salted", 1.05, 1);
    f->ci[2] = result(&f->a[1], "monotonic", 1200, 1);
    f->ci[3] = result(&f->a[1], "salted", 900, 1);
    f->ci[4] = result(&f->a[2], "monotonic", 3, 0);
    f->ci[5] = result(&f->a[2], "salted", 12, 1);
    f->growth[0] = result(&f->a[3], "salted", 1.5, 1);
    /* the wall times of the jobs, and the runs' simulated time */
    f->suites[0] = (junit_suite){ "ci", f->ci, 6, 4.25, NULL, 3600 };
    f->suites[1] = (junit_suite){ "growth", f->growth, 1, 0.5, NULL, 1800.25 };
}

/* Names built of what XML and reporters choke on. */
#define HOSTILE_SCHEME "q\"'<&>\x01\x1f\x7f\xff\xc3(\t\n\r.\xc3\xa9\xef\xbf\xbe\xc0\xaf\xed\xa0\x80\\"
#define HOSTILE_SCHEME_READ "q\"'<&>\\x01\\x1F\\x7F\\xFF\\xC3(\t\n\r_\xc3\xa9\\xEF\\xBF\\xBE" \
                            "\\xC0\\xAF\\xED\\xA0\\x80\\"
#define HOSTILE_SCENARIO "sc.en<ario>&\x02"
#define HOSTILE_SCENARIO_READ "sc.en<ario>&\\x02"
#define HOSTILE_TEXT "w < 1 && x > \"2\" \x1b[31m\xfe"
#define HOSTILE_TEXT_READ "w < 1 && x > \"2\" \\x1B[31m\\xFE"

typedef struct hostile_fixture {
    assertion a[2];
    assertion_result r[2];
    junit_suite suite;
} hostile_fixture;

static void hostile_init(hostile_fixture *f)
{
    make_assertion(&f->a[0], HOSTILE_TEXT, HOSTILE_TEXT, 1);
    /* A name that fills its array without a NUL, then a hostile text. */
    make_assertion(&f->a[1], "", HOSTILE_TEXT, 1);
    memset(f->a[1].name, 'n', sizeof f->a[1].name);
    f->r[0] = result(&f->a[0], HOSTILE_SCHEME, 2, 0);
    f->r[1] = result(&f->a[1], HOSTILE_SCHEME, 0.5, 1);
    f->suite = (junit_suite){ HOSTILE_SCENARIO, f->r, 2, 0, NULL, 0 };
}

/* NAN, a value whose short forms all equal its bound, a tiny one, a
 * steady assertion, a value just past its bound, NAN with a reason, a
 * bound as written. */
typedef struct values_fixture {
    assertion a[4];
    assertion_result r[7];
    junit_suite suite;
} values_fixture;

static void values_init(values_fixture *f)
{
    make_assertion(&f->a[0], "read_max_mean <= 1.2", "read_max_mean <= 1.2", 1.2);
    make_assertion(&f->a[1], "write_max_mean <= 0.3", "write_max_mean <= 0.3", 0.3);
    make_assertion(&f->a[2], "steady over last 4 windows", "steady over last 4 windows", 0);
    f->a[2].kind = ASSERTION_STEADY;
    f->a[2].op = ASSERT_EQ;
    f->a[2].over_last_windows = 4;
    snprintf(f->a[2].bound_text, sizeof f->a[2].bound_text, "0");
    make_assertion(&f->a[3], "p99_latency_us < 5e4", "p99_latency_us < 5e4", 5e4);
    snprintf(f->a[3].bound_text, sizeof f->a[3].bound_text, "5e4");
    f->r[0] = result(&f->a[0], "monotonic", NAN, 0);
    f->r[1] = result(&f->a[1], "monotonic", 0.1 + 0.2, 0);
    f->r[2] = result(&f->a[1], "salted", 1e-7, 1);
    f->r[3] = result(&f->a[2], "salted", 3, 0);
    f->r[4] = result(&f->a[0], "salted", 1.2000001, 0);
    f->r[5] = result(&f->a[0], "salted", NAN, 0);
    f->r[5].why = "no window had a read";
    f->r[6] = result(&f->a[3], "salted", 50000.4, 0);
    f->suite = (junit_suite){ "values", f->r, 7, NAN, NULL, NAN };
}

/* Renders fixture document `which` (malloc'd). */
static char *render_doc(int which)
{
    counts_fixture c;
    hostile_fixture h;
    values_fixture v;
    junit_suite empty = { "empty", NULL, 0, 0, NULL, 0 };
    switch (which) {
    case DOC_COUNTS: counts_init(&c); return render(c.suites, 2);
    case DOC_HOSTILE: hostile_init(&h); return render(&h.suite, 1);
    case DOC_VALUES: values_init(&v); return render(&v.suite, 1);
    case DOC_EMPTY_SUITE: return render(&empty, 1);
    default: return render(NULL, 0);
    }
}

/* ---- tests ---- */

static void test_counts_names_and_failures(void **state)
{
    (void)state;
    char *xml = render_doc(DOC_COUNTS);
    assert_xml_contains(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                         "<testsuites name=\"regionsim\" tests=\"7\" failures=\"2\" errors=\"0\""
                         " time=\"4.750\">\n");
    /* time: the job's wall time; the simulated time a property, first */
    assert_xml_contains(xml, "  <testsuite name=\"ci\" tests=\"6\" failures=\"2\" errors=\"0\""
                         " skipped=\"0\" time=\"4.250\">\n"
                         "    <properties>\n"
                         "      <property name=\"simulated_time_s\" value=\"3600.000\"/>\n"
                         "    </properties>\n"
                         "    <testcase ");
    assert_xml_contains(xml, "  <testsuite name=\"growth\" tests=\"1\" failures=\"0\" errors=\"0\""
                         " skipped=\"0\" time=\"0.500\">\n"
                         "    <properties>\n"
                         "      <property name=\"simulated_time_s\" value=\"1800.250\"/>\n");
    assert_int_equal(count(xml, "<properties>"), 2);
    assert_int_equal(count(xml, "<testsuite "), 2);
    assert_int_equal(count(xml, "<testcase "), 7);
    assert_int_equal(count(xml, "<failure "), 2);
    assert_int_equal(count(xml, "</testcase>"), 2); /* passing cases are empty elements */
    /* A failure: the value (six significant digits) and the bound. */
    assert_xml_contains(xml,
        "    <testcase name=\"write_max_mean &lt;= 1.2\" classname=\"ci.monotonic\" time=\"0\">\n"
        "      <failure message=\"value 5.33333, bound 1.2\" type=\"assertion\">"
        "write_max_mean &lt;= 1.2 for monotonic: value 5.33333, bound 1.2</failure>\n"
        "    </testcase>\n");
    assert_xml_contains(xml, "<failure message=\"value 3, bound 4\" type=\"assertion\">"
                         "regions &gt;= 4 for monotonic: value 3, bound 4</failure>");
    assert_xml_contains(xml, "    <testcase name=\"write_max_mean &lt;= 1.2\" classname=\"ci.salted\""
                         " time=\"0\"/>\n");
    /* A named section: "NAME: text". */
    assert_xml_contains(xml, "<testcase name=\"balanced: write_max_mean &lt;= 2 over last 10m\""
                         " classname=\"growth.salted\" time=\"0\"/>");
    assert_xml_contains(xml, "</testsuites>\n");
    assert_clean_utf8(xml);
    free(xml);
}

static void test_values_nan_shortest_steady(void **state)
{
    (void)state;
    char *xml = render_doc(DOC_VALUES);
    assert_xml_contains(xml, "<failure message=\"value undefined, bound 1.2\" type=\"assertion\">"
                         "read_max_mean &lt;= 1.2 for monotonic: value undefined, bound 1.2"
                         "</failure>");
    assert_xml_contains(xml, "<failure message=\"value 0.30000000000000004, bound 0.3\"");
    assert_xml_contains(xml, "<failure message=\"value 1.2000001, bound 1.2\"");
    assert_xml_contains(xml, "classname=\"values.salted\" time=\"0\"/>"); /* 1e-7 passed */
    assert_xml_contains(xml, "<failure message=\"value 3 (region count changes and moves), bound 0\""
                         " type=\"assertion\">steady over last 4 windows for salted: value 3"
                         " (region count changes and moves), bound 0</failure>");
    assert_xml_contains(xml, "<failure message=\"value undefined (no window had a read), bound 1.2\"");
    assert_xml_contains(xml, "<failure message=\"value 50000.4, bound 5e4\"");
    /* A NAN time is 0. */
    assert_xml_contains(xml, "<testsuite name=\"values\" tests=\"7\" failures=\"6\" errors=\"0\""
                         " skipped=\"0\" time=\"0.000\">");
    free(xml);
}

static void test_hostile_text_is_escaped(void **state)
{
    (void)state;
    char *xml = render_doc(DOC_HOSTILE);
    assert_clean_utf8(xml);
    /* In attributes: entities, visible \xNN, tab/newline/return as
     * references; classname's dots as '_'. */
    assert_xml_contains(xml, "classname=\"sc_en&lt;ario&gt;&amp;\\x02."
                         "q&quot;&apos;&lt;&amp;&gt;\\x01\\x1F\\x7F\\xFF\\xC3(&#9;&#10;&#13;_"
                         "\xc3\xa9\\xEF\\xBF\\xBE\\xC0\\xAF\\xED\\xA0\\x80\\\"");
    assert_xml_contains(xml, "<testsuite name=\"sc.en&lt;ario&gt;&amp;\\x02\"");
    assert_xml_contains(xml, "name=\"w &lt; 1 &amp;&amp; x &gt; &quot;2&quot; \\x1B[31m\\xFE\"");
    /* In text: tab and newline as they are, return as a reference. */
    assert_xml_contains(xml, " for q&quot;&apos;&lt;&amp;&gt;\\x01\\x1F\\x7F\\xFF\\xC3(\t\n&#13;."
                         "\xc3\xa9\\xEF\\xBF\\xBE");
    /* An unterminated name array: all its bytes, and no more. */
    assertion a;
    char name[sizeof a.name + 16];
    name[0] = '"';
    memset(name + 1, 'n', sizeof a.name);
    snprintf(name + 1 + sizeof a.name, sizeof name - 1 - sizeof a.name, ": w &lt;");
    assert_xml_contains(xml, name);
    free(xml);
}

/* xmllint reads the names back as the text given, bytes XML cannot hold
 * as \xNN. */
static void test_hostile_text_reads_back(void **state)
{
    (void)state;
    char *xml = render_doc(DOC_HOSTILE);
    assert_int_equal(xmllint(xml, NULL), 0);
    char *s = xpath(xml, "/testsuites/testsuite/@name");
    assert_string_equal(s, HOSTILE_SCENARIO_READ);
    free(s);
    s = xpath(xml, "/testsuites/testsuite/testcase[1]/@name");
    assert_string_equal(s, HOSTILE_TEXT_READ);
    free(s);
    s = xpath(xml, "/testsuites/testsuite/testcase[1]/@classname");
    assert_string_equal(s, "sc_en<ario>&\\x02." HOSTILE_SCHEME_READ);
    free(s);
    s = xpath(xml, "/testsuites/testsuite/testcase[1]/failure");
    assert_string_equal(s, HOSTILE_TEXT_READ " for q\"'<&>\\x01\\x1F\\x7F\\xFF\\xC3(\t\n\r."
                           "\xc3\xa9\\xEF\\xBF\\xBE\\xC0\\xAF\\xED\\xA0\\x80\\: value 2, bound 1");
    free(s);
    s = xpath(xml, "count(//failure)");
    assert_string_equal(s, "1");
    free(s);
    free(xml);
}

static void test_zero_assertions(void **state)
{
    (void)state;
    char *xml = render_doc(DOC_EMPTY_SUITE);
    assert_string_equal(xml,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"regionsim\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0.000\">\n"
        "  <testsuite name=\"empty\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\""
        " time=\"0.000\"/>\n"
        "</testsuites>\n");
    free(xml);
    xml = render_doc(DOC_NO_SUITES);
    assert_string_equal(xml,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"regionsim\" tests=\"0\" failures=\"0\" errors=\"0\""
        " time=\"0.000\"/>\n");
    free(xml);
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int d = 0; d < DOCS; d++) {
        char *a = render_doc(d), *b = render_doc(d);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
}

/* Every fixture document is well-formed for xmllint. */
static void test_well_formed(void **state)
{
    (void)state;
    for (int d = 0; d < DOCS; d++) {
        char *xml = render_doc(d);
        if (xmllint(xml, NULL) != 0) fail_msg("document %d is not well-formed:\n%s", d, xml);
        free(xml);
    }
}

/* Documents well-formed but invalid under either schema (jenkins-junit.xsd
 * or junit-10.xsd): a testsuite without `tests`, a testcase without a
 * name, an attribute and an element neither schema knows. */
static const char *const invalid_docs[] = {
    "<testsuites><testsuite name=\"a\" failures=\"0\" errors=\"0\"/></testsuites>",
    "<testsuites><testsuite name=\"a\" tests=\"1\" failures=\"0\" errors=\"0\">"
    "<testcase classname=\"a.b\"/></testsuite></testsuites>",
    "<testsuites><testsuite name=\"a\" tests=\"0\" failures=\"0\" errors=\"0\""
    " flavour=\"x\"/></testsuites>",
    "<testsuites><testsuite name=\"a\" tests=\"0\" failures=\"0\" errors=\"0\">"
    "<result/></testsuite></testsuites>",
};

/* Every fixture document validates against the published schema, and the
 * schema refuses what it should: each of invalid_docs is well-formed and
 * rejected as invalid (xmllint's status 3; its refusals in the log are
 * these), which shows the validation can fail. */
static void test_valid_against_schema(void **state)
{
    const env *e = *state;
    for (int d = 0; d < DOCS; d++) {
        char *xml = render_doc(d);
        int rc = xmllint(xml, e->xsd);
        if (rc != 0)
            fail_msg("document %d does not validate against %s (xmllint status %d):\n%s",
                     d, e->xsd, rc, xml);
        free(xml);
    }
    for (size_t i = 0; i < sizeof invalid_docs / sizeof *invalid_docs; i++) {
        if (xmllint(invalid_docs[i], NULL) != 0)
            fail_msg("invalid document %zu is not even well-formed: %s", i, invalid_docs[i]);
        int rc = xmllint(invalid_docs[i], e->xsd);
        if (rc != 3)
            fail_msg("%s did not reject invalid document %zu as invalid (xmllint status %d,"
                     " want 3): %s", e->xsd, i, rc, invalid_docs[i]);
    }
}

static void test_bad_arguments_write_nothing(void **state)
{
    (void)state;
    assertion a;
    make_assertion(&a, "x <= 1", "x <= 1", 1);
    assertion_result r[2] = { result(&a, "s", 0, 1), result(NULL, "s", 0, 1) };
    junit_suite s = { "ci", r, 2, 0, NULL, 0 };
    char *buf = NULL, err[128];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(junit_write(f, &s, 1, err, sizeof err), -1);
    assert_string_equal(err, "junit: suite 0, result 1 has no assertion");
    r[1] = result(&a, NULL, 0, 1);
    assert_int_equal(junit_write(f, &s, 1, err, sizeof err), -1);
    assert_string_equal(err, "junit: suite 0, result 1 has no scheme");
    s.name = NULL;
    assert_int_equal(junit_write(f, &s, 1, err, sizeof err), -1);
    assert_string_equal(err, "junit: suite 0 has no name");
    assert_int_equal(junit_write(f, NULL, 1, err, sizeof err), -1);
    assert_int_equal(junit_write(f, NULL, 1, NULL, 0), -1); /* no room for a message */
    assert_int_equal(fclose(f), 0);
    assert_int_equal(len, 0);
    free(buf);
}

/* strstr's verdict without printing hay (which GCC's -Wformat-overflow
 * cannot prove is not NULL once inlined into assert_contains) */
#define assert_in(hay, needle) assert_non_null(strstr((hay), (needle)))

/* A label (a sweep's point) follows the assertion in the testcase's name
 * and in the failure's text, escaped; a NULL entry adds nothing. */
static void test_labels_follow_the_assertion(void **state)
{
    (void)state;
    assertion a;
    make_assertion(&a, "x <= 1", "x <= 1", 1);
    assertion_result r[3] = { result(&a, "s", 2, 0), result(&a, "s", 0, 1), result(&a, "s", 0, 1) };
    const char *labels[3] = { "b=1 q=<2>", NULL, "b=\"2\"" };
    junit_suite s = { "ci", r, 3, 0, labels, 0 };
    char *doc = render(&s, 1);
    assert_non_null(doc);
    assert_in(doc, "<testcase name=\"x &lt;= 1 [b=1 q=&lt;2&gt;]\" classname=\"ci.s\"");
    assert_in(doc, ">x &lt;= 1 [b=1 q=&lt;2&gt;] for s: value 2, bound 1</failure>");
    assert_in(doc, "<testcase name=\"x &lt;= 1\" classname=\"ci.s\" time=\"0\"/>");
    assert_in(doc, "<testcase name=\"x &lt;= 1 [b=&quot;2&quot;]\" classname=\"ci.s\"");
    free(doc);
}

static void test_write_error_is_reported(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) /* every Linux system has it */
        fail_msg("cannot open /dev/full: %s", strerror(errno));
    counts_fixture c;
    counts_init(&c);
    char err[128];
    assert_int_equal(junit_write(f, c.suites, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "junit: cannot write the report: "));
    fclose(f);
}

int main(int argc, char **argv)
{
    env e = { "", "" };
    const char *xsd = getenv("REGIONSIM_JUNIT_XSD");
    if (xsd && *xsd)
        snprintf(e.xsd, sizeof e.xsd, "%s", xsd);
    else if (argc > 1)
        snprintf(e.xsd, sizeof e.xsd, "%s/junit.xsd", argv[1]);
    if (!e.xsd[0])
        snprintf(e.tried, sizeof e.tried, "neither $REGIONSIM_JUNIT_XSD nor DATA_DIR given");
    else if (strchr(e.xsd, '\''))
        snprintf(e.tried, sizeof e.tried, "%.4000s: a path with a single quote is not used", e.xsd);
    else if (access(e.xsd, R_OK) != 0)
        snprintf(e.tried, sizeof e.tried, "%.4000s: %s", e.xsd, strerror(errno));
    if (e.tried[0])
        e.xsd[0] = '\0';
    int mode_xmllint = test_has_arg(argc, argv, "--xmllint");
    int mode_schema = test_has_arg(argc, argv, "--schema");
    if ((mode_xmllint || mode_schema) && !test_have_xmllint())
        return test_cannot_run(mode_schema ? "junit_schema" : "junit_xmllint",
                               "xmllint not found (Debian package libxml2-utils;"
                               " sh setup.sh --tests installs it)", schema_required());
    if (mode_schema && !e.xsd[0]) {
        char why[4300];
        snprintf(why, sizeof why, "no JUnit schema (%s): `sh setup.sh --tests` fetches it"
                 " to tests/data/junit.xsd; tests/data/junit.md says from where", e.tried);
        return test_cannot_run("junit_schema", why, schema_required());
    }
    const struct CMUnitTest bytes[] = {
        cmocka_unit_test(test_counts_names_and_failures),
        cmocka_unit_test(test_values_nan_shortest_steady),
        cmocka_unit_test(test_hostile_text_is_escaped),
        cmocka_unit_test(test_zero_assertions),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_arguments_write_nothing),
        cmocka_unit_test(test_labels_follow_the_assertion),
        cmocka_unit_test(test_write_error_is_reported),
    };
    const struct CMUnitTest xmllint_read[] = {
        cmocka_unit_test(test_hostile_text_reads_back),
        cmocka_unit_test(test_well_formed),
    };
    const struct CMUnitTest schema[] = {
        cmocka_unit_test_prestate(test_valid_against_schema, &e),
    };
    if (mode_schema)
        return cmocka_run_group_tests(schema, NULL, NULL);
    if (mode_xmllint)
        return cmocka_run_group_tests(xmllint_read, NULL, NULL);
    return cmocka_run_group_tests(bytes, NULL, NULL);
}
