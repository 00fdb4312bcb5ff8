/* fuzz_assertion.c -- CI assertions' text (reports/assertion.h).
 *
 * Input: one assertion as --assert or `expect = TEXT` takes it (up to its
 * first NUL byte, at most 512 bytes used as text).
 *
 * Oracles:
 *  - assertion_parse: 0, or -1 with a message without control bytes (the
 *    input's are shown escaped); what the messages say is for
 *    tests/test_assertion.c;
 *  - an assertion accepted keeps its promises: a bound names a
 *    scheme-scope figure; balance and steady name none and have exactly
 *    one of "over last N windows" and "over last DURATION"; a bound has no
 *    window count; steady is "== 0"; scheme names are non-empty;
 *  - its normalised text, with its for clause put back ("TEXT for A, B"),
 *    parses to the same assertion (kind, figure, op, bound, over last,
 *    schemes), unless that text grew past the longest one taken;
 *  - checked against results with no runs, it gives no result, or, when
 *    it names schemes, -1 saying "no scheme '...'" (the name shown
 *    escaped, long ones cut).
 */
#include "fuzz/fuzz.h"

#include <math.h>

#include "reports/assertion.h"

#define TEXT_MAX 512

static void check_same(const assertion *a, const assertion *b, const char *text)
{
    FUZZ_CHECK(a->kind == b->kind && a->figure == b->figure && a->op == b->op &&
               a->balance_reads == b->balance_reads &&
               (a->bound == b->bound || (isnan(a->bound) && isnan(b->bound))) &&
               a->over_last_us == b->over_last_us && a->over_last_windows == b->over_last_windows &&
               a->nschemes == b->nschemes,
               "'%s' reparses to another assertion", text);
    for (size_t i = 0; i < a->nschemes; i++)
        FUZZ_CHECK(!strcmp(a->schemes[i], b->schemes[i]), "'%s': scheme %zu reparses as '%s'",
                   text, i, b->schemes[i]);
}

static void check_promises(const assertion *a, const char *text)
{
    if (a->kind == ASSERTION_BOUND) {
        FUZZ_CHECK(a->figure && a->figure->scope == FIGURE_SCHEME && a->over_last_windows == 0,
                   "'%s': a bound without a scheme figure, or with windows", text);
    } else {
        FUZZ_CHECK(!a->figure && (a->over_last_windows > 0) != (a->over_last_us > 0),
                   "'%s': balance or steady with a figure, or not one 'over last'", text);
    }
    if (a->kind == ASSERTION_STEADY)
        FUZZ_CHECK(a->op == ASSERT_EQ && a->bound == 0, "'%s': steady is not '== 0'", text);
    for (size_t i = 0; i < a->nschemes; i++)
        FUZZ_CHECK(a->schemes[i][0], "'%s': an empty scheme name", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[TEXT_MAX + 1], err[1024];
    size_t n = 0;
    while (n < size && n < TEXT_MAX && data[n])
        n++;
    memcpy(text, data, n);
    text[n] = '\0';

    static assertion a, b; /* 17 KB each: not on libFuzzer's stack */
    err[0] = '\0';
    if (assertion_parse(text, &a, err, sizeof err) < 0) {
        FUZZ_CHECK(err[0] != '\0', "'%s' is refused without a message", text);
        for (const char *p = err; *p; p++) /* the input's bytes are shown escaped */
            FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f,
                       "'%s' is refused with a message holding a control byte", text);
        return 0;
    }
    check_promises(&a, text);

    char again[ASSERTION_TEXT_MAX + ASSERTION_MAX_SCHEMES * (ASSERTION_SCHEME_MAX + 4) + 8];
    size_t used = (size_t)snprintf(again, sizeof again, "%s", a.text);
    for (size_t i = 0; i < a.nschemes; i++) {
        int quote = strpbrk(a.schemes[i], " \t\n\v\f\r,\"") != NULL;
        used += (size_t)snprintf(again + used, sizeof again - used, "%s%s%s%s", i ? ", " : " for ",
                                 quote ? "\"" : "", a.schemes[i], quote ? "\"" : "");
    }
    if (assertion_parse(again, &b, err, sizeof err) == 0)
        check_same(&a, &b, again);
    else /* a quote inside a name, or ", " separators past the longest text */
        FUZZ_CHECK(strchr(again, '"') != NULL || strlen(again) >= ASSERTION_TEXT_MAX,
                   "'%s' (from '%s') is refused: %s", again, text, err);

    sim_results none;
    memset(&none, 0, sizeof none);
    assertion_result r[1];
    int got = assertion_check(&a, &none, r, err, sizeof err);
    FUZZ_CHECK(a.nschemes ? got == -1 && strstr(err, "no scheme '") : got == 0,
               "'%s' on no runs: %d (%s)", text, got, got < 0 ? err : "");
    return 0;
}
