/* nearest.h -- "did you mean": the known name nearest a misspelt one.
 *
 * One edit distance for every suggestion the program makes: a preset
 * (workloads/keyscheme.c), an option (cli/cli_options.c), a figure
 * (reports/figures.c), a YCSB property (workloads/ycsb_properties.c), a
 * scheme an assertion names (cli/cli_checks.c). It is the optimal string
 * alignment distance (Damerau-Levenshtein without edits of a substring
 * edited before): an insertion, a deletion, a substitution or a swap of
 * two adjacent characters costs 1, so "hahsed" is one edit from "hashed"
 * and "monotnic" one from "monotonic", as a typist sees them.
 *
 * Header only, as core/text.h is: scenario/, cli/, workloads/ and reports/ all
 * suggest names, and reports/ links nothing of the others (its tests link
 * it alone), so the helper lives below them all with nothing to link.
 *
 * Cost: O(|a| |b|) time in three rows of NEAREST_MAX_LEN + 1 on the
 * stack, nothing allocated. A name longer than NEAREST_MAX_LEN is never
 * near anything (the lists' names are short, and a word that long is not
 * a slip of one); a pair whose lengths differ by more than the limit is
 * rejected without the table.
 *
 * Use: nearest n = nearest_start(word, nearest_limit(word), 0); then
 * nearest_offer(&n, candidate) for each candidate; n.best is the nearest
 * within the limit (the first offered on ties), or NULL.
 */
#ifndef REGIONSIM_NEAREST_H
#define REGIONSIM_NEAREST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NEAREST_MAX_LEN 64
#define NEAREST_FAR SIZE_MAX /* the distance of a pair too long to compare */

static inline unsigned char nearest_fold(unsigned char c, int fold_case)
{
    return fold_case && c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The optimal string alignment distance between a and b (ASCII case
 * folded when fold_case), or NEAREST_FAR when either is longer than
 * NEAREST_MAX_LEN. */
static inline size_t nearest_distance(const char *a, const char *b, int fold_case)
{
    size_t la = strnlen(a, NEAREST_MAX_LEN + 1), lb = strnlen(b, NEAREST_MAX_LEN + 1);
    if (la > NEAREST_MAX_LEN || lb > NEAREST_MAX_LEN)
        return NEAREST_FAR;
    size_t rows[3][NEAREST_MAX_LEN + 1];
    size_t *two = rows[0], *prev = rows[1], *cur = rows[2]; /* rows i-2, i-1, i */
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        unsigned char ca = nearest_fold((unsigned char)a[i - 1], fold_case);
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned char cb = nearest_fold((unsigned char)b[j - 1], fold_case);
            size_t best = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == nearest_fold((unsigned char)b[j - 2], fold_case) &&
                nearest_fold((unsigned char)a[i - 2], fold_case) == cb && two[j - 2] + 1 < best)
                best = two[j - 2] + 1; /* a swap of two adjacent characters */
            cur[j] = best;
        }
        size_t *t = two;
        two = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

/* The usual limit for a word: 2 edits, or a third of its length when
 * that is more. */
static inline size_t nearest_limit(const char *word)
{
    size_t third = strnlen(word, NEAREST_MAX_LEN + 1) / 3;
    return third > 2 ? third : 2;
}

typedef struct nearest {
    const char *word;  /* the word looked up */
    size_t limit;      /* the most edits a suggestion may be from it */
    int fold_case;     /* compare ASCII letters without their case */
    const char *best;  /* the nearest candidate offered within limit, or NULL */
    size_t distance;   /* best's distance (NEAREST_FAR while best is NULL) */
} nearest;

/* A search for the candidate nearest `word` (NULL: none is ever near),
 * at most `limit` edits away. */
static inline nearest nearest_start(const char *word, size_t limit, int fold_case)
{
    nearest n = { word, limit, fold_case, NULL, NEAREST_FAR };
    return n;
}

/* Offers a candidate: it becomes n->best when it is within the limit and
 * nearer than every candidate offered before (so the first wins a tie). */
static inline void nearest_offer(nearest *n, const char *candidate)
{
    if (!n->word || !candidate)
        return;
    size_t la = strnlen(n->word, NEAREST_MAX_LEN + 1), lb = strnlen(candidate, NEAREST_MAX_LEN + 1);
    if ((la > lb ? la - lb : lb - la) > n->limit) /* at least that many edits */
        return;
    size_t d = nearest_distance(n->word, candidate, n->fold_case);
    if (d <= n->limit && d < n->distance) {
        n->best = candidate;
        n->distance = d;
    }
}

#endif
