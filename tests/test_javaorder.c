/* test_javaorder.c -- core/javaorder against values the JDK and Guava computed.
 *
 * tests/data/java_orders.txt (its header gives the line format) holds
 * what OpenJDK 17 and Guava 31.1 answered: String.hashCode of server
 * names and other strings, the iteration order of java.util.HashMap for
 * key sets of 0..200 keys added with put or with compute (including sizes
 * across the resize thresholds 12, 24, 48, 96, 192 and keys crowding one
 * bin), Collections.shuffle and
 * Random.nextInt results for given seeds, and traces of a Guava
 * MinMaxPriorityQueue<Integer> (add, poll, removal through the iterator)
 * with the queue's array after every step. tests/data/
 * hbase_simple_balancer.md says how they were made. The program takes the
 * data directory as its argument (meson passes it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/javaorder.h"
#include "tests/balancer_support.h"

/* ---- reading the data -------------------------------------------------- */

typedef struct data {
    const char *dir;
} data;

static FILE *open_data(void **state)
{
    const data *d = *state;
    char path[4096];
    snprintf(path, sizeof path, "%s/java_orders.txt", d->dir);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    return f;
}

/* Splits line (modified) into at most max words separated by spaces. */
static size_t split_words(char *line, char **w, size_t max)
{
    size_t n = 0;
    char *p = line;
    while (n < max) {
        while (*p == ' ' || *p == '\n')
            *p++ = '\0';
        if (!*p)
            break;
        w[n++] = p;
        while (*p && *p != ' ' && *p != '\n')
            p++;
    }
    return n;
}

#define MAX_WORDS 1024
#define LINE_MAX_LEN 65536

/* ---- the tests ----------------------------------------------------------- */

static void test_string_hash(void **state)
{
    FILE *f = open_data(state);
    char *line = malloc(LINE_MAX_LEN);
    char *w[MAX_WORDS];
    size_t cases = 0, bad = 0;
    while (fgets(line, LINE_MAX_LEN, f)) {
        if (strncmp(line, "strhash ", 8) != 0)
            continue;
        size_t n = split_words(line, w, MAX_WORDS);
        assert_int_equal(n, 3);
        int32_t want = (int32_t)strtol(w[2], NULL, 10);
        int32_t got = (int32_t)java_string_hash(w[1], strlen(w[1]));
        if (got != want && bad++ < 5)
            print_error("hash of %s: %d, Java %d\n", w[1], got, want);
        cases++;
    }
    fclose(f);
    free(line);
    assert_true(cases >= 300);
    assert_int_equal(bad, 0);
}

static void test_hashmap_order(void **state)
{
    FILE *f = open_data(state);
    char *line = malloc(LINE_MAX_LEN), *next = malloc(LINE_MAX_LEN);
    char *w[MAX_WORDS], *o[MAX_WORDS];
    uint32_t hash[MAX_WORDS];
    size_t order[MAX_WORDS];
    size_t cases = 0, computed = 0, bad = 0, largest = 0;
    while (fgets(line, LINE_MAX_LEN, f)) {
        int compute = strncmp(line, "hashmapc ", 9) == 0;
        if (strncmp(line, "hashmap ", 8) != 0 && !compute)
            continue;
        assert_non_null(fgets(next, LINE_MAX_LEN, f));
        size_t n = split_words(line, w, MAX_WORDS) - 2;
        assert_int_equal(n, strtoul(w[1], NULL, 10));
        size_t m = split_words(next, o, MAX_WORDS);
        assert_string_equal(o[0], "order");
        assert_int_equal(m - 1, n);
        for (size_t i = 0; i < n; i++)
            hash[i] = java_string_hash(w[i + 2], strlen(w[i + 2]));
        if (compute)
            assert_int_equal(java_hashmap_compute_order(hash, n, order), 0);
        else
            assert_int_equal(java_hashmap_order(hash, n, order), 0);
        int same = 1;
        for (size_t i = 0; i < n; i++)
            same &= order[i] == strtoul(o[i + 1], NULL, 10);
        if (!same && bad++ < 5)
            print_error("HashMap order of %zu keys (%s) differs from Java's\n", n,
                        compute ? "compute" : "put");
        cases++;
        computed += compute;
        largest = n > largest ? n : largest;
    }
    fclose(f);
    free(line);
    free(next);
    assert_true(cases - computed >= 300);
    assert_true(computed >= 300);
    assert_true(largest >= 200);
    assert_int_equal(bad, 0);
}

static void test_shuffle_and_next_int(void **state)
{
    FILE *f = open_data(state);
    char *line = malloc(LINE_MAX_LEN);
    char *w[MAX_WORDS];
    size_t items[MAX_WORDS];
    size_t shuffles = 0, ints = 0, bad = 0;
    while (fgets(line, LINE_MAX_LEN, f)) {
        if (strncmp(line, "shuffle ", 8) == 0) {
            size_t nw = split_words(line, w, MAX_WORDS);
            size_t n = strtoul(w[1], NULL, 10);
            assert_int_equal(nw, n + 3);
            java_random r;
            jr_init(&r, strtoll(w[2], NULL, 10));
            for (size_t i = 0; i < n; i++)
                items[i] = i;
            java_shuffle(items, n, jr_below, &r);
            int same = 1;
            for (size_t i = 0; i < n; i++)
                same &= items[i] == strtoul(w[i + 3], NULL, 10);
            if (!same && bad++ < 5)
                print_error("shuffle of %zu with seed %s differs\n", n, w[2]);
            shuffles++;
        } else if (strncmp(line, "nextint ", 8) == 0) {
            size_t nw = split_words(line, w, MAX_WORDS);
            assert_int_equal(nw, 23);
            java_random r;
            jr_init(&r, strtoll(w[1], NULL, 10));
            uint32_t bound = (uint32_t)strtoul(w[2], NULL, 10);
            for (size_t i = 0; i < 20; i++) {
                uint32_t got = jr_below(&r, bound);
                if (got != strtoul(w[i + 3], NULL, 10) && bad++ < 5)
                    print_error("nextInt(%u) with seed %s: %u\n", bound, w[1], got);
            }
            ints++;
        }
    }
    fclose(f);
    free(line);
    assert_true(shuffles >= 300);
    assert_true(ints >= 30);
    assert_int_equal(bad, 0);
}

static int int_cmp(void *ctx, size_t a, size_t b)
{
    (void)ctx;
    return (a > b) - (a < b);
}

static void test_min_max_priority_queue(void **state)
{
    FILE *f = open_data(state);
    char *line = malloc(LINE_MAX_LEN);
    char *w[MAX_WORDS];
    size_t traces = 0, steps = 0, bad = 0, removals = 0;
    mmpq q;
    int open = 0;
    mmpq_init(&q, int_cmp, NULL);
    while (fgets(line, LINE_MAX_LEN, f)) {
        if (line[0] == '#')
            continue;
        size_t nw = split_words(line, w, MAX_WORDS);
        if (nw == 0)
            continue;
        if (strcmp(w[0], "mmpq") == 0) {
            mmpq_release(&q);
            open = strcmp(w[1], "end") != 0;
            traces += open;
        } else if (!open) {
            continue;
        } else if (strcmp(w[0], "add") == 0) {
            assert_int_equal(mmpq_add(&q, strtoul(w[1], NULL, 10)), 0);
            steps++;
        } else if (strcmp(w[0], "poll") == 0) {
            size_t got = mmpq_poll(&q);
            if (got != strtoul(w[1], NULL, 10) && bad++ < 5)
                print_error("trace %zu: poll gave %zu, Guava %s\n", traces, got, w[1]);
            steps++;
        } else if (strcmp(w[0], "removeat") == 0) {
            size_t at = strtoul(w[1], NULL, 10);
            assert_true(at < q.size);
            size_t got = mmpq_remove_at(&q, at);
            if (got != strtoul(w[2], NULL, 10) && bad++ < 5)
                print_error("trace %zu: removeAt(%zu) gave %zu, Guava %s\n", traces, at, got,
                            w[2]);
            steps++;
            removals++;
        } else if (strcmp(w[0], "array") == 0) {
            int same = nw - 1 == q.size;
            for (size_t i = 0; same && i < q.size; i++)
                same = q.item[i] == strtoul(w[i + 1], NULL, 10);
            if (!same && bad++ < 5)
                print_error("trace %zu, step %zu: array differs from Guava's\n", traces, steps);
        }
    }
    mmpq_release(&q);
    fclose(f);
    free(line);
    assert_true(traces >= 50);
    assert_true(removals >= 100);
    assert_int_equal(bad, 0);
}

int main(int argc, char **argv)
{
    data d = { argc > 1 ? argv[1] : "tests/data" };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_string_hash, &d),
        cmocka_unit_test_prestate(test_hashmap_order, &d),
        cmocka_unit_test_prestate(test_shuffle_and_next_int, &d),
        cmocka_unit_test_prestate(test_min_max_priority_queue, &d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
