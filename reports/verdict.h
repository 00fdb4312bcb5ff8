/* verdict.h -- how evenly a load spreads over the servers, in words.
 *
 * One set of thresholds for every report that judges a spread (the HTML
 * summary's verdict column, reports/html_summary.c; the reasons `regionsim
 * advise` gives, reports/advise_report.c), so that a scheme called "even"
 * in one is never "slightly uneven" in another. On a max/mean m of n
 * servers (1 = even, n = all on one):
 *   m >= VERDICT_ONE_SERVER * n      one server takes it (n >= 2; and m at
 *                                    least VERDICT_UNEVEN, for n of 2 or 3)
 *   m >= VERDICT_UNEVEN              uneven
 *   m >  VERDICT_EVEN                nearly even
 *   otherwise                        even
 * The thresholds are fixed, not tuned per scenario; docs/reports.md lists
 * them for users.
 */
#ifndef REGIONSIM_VERDICT_H
#define REGIONSIM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#define VERDICT_EVEN 1.10      /* max/mean at most this: even */
#define VERDICT_UNEVEN 1.50    /* at least this: uneven (stats.h's STATS_STEADY_HOTSPOT) */
#define VERDICT_ONE_SERVER 0.5 /* max/mean at least this share of n: one server takes it */
#define VERDICT_RPCS_MANY 2.0  /* RPCs per read at least this: reads fan out */

typedef enum spread_class {
    SPREAD_UNDEFINED,   /* max/mean is NAN: nothing measured */
    SPREAD_EVEN,
    SPREAD_NEARLY_EVEN,
    SPREAD_UNEVEN,
    SPREAD_ONE_SERVER,
} spread_class;

/* The class of a spread whose max/mean is max_mean over nservers servers
 * (SPREAD_UNDEFINED when max_mean is NAN; never SPREAD_ONE_SERVER when
 * nservers < 2). */
spread_class verdict_spread(double max_mean, uint32_t nservers);

/* The class's words as a predicate of a load: "even", "nearly even",
 * "uneven", "on one server", "unmeasured". */
const char *verdict_spread_word(spread_class c);

/* Appends to buf (cap bytes, NUL-terminated, truncated if short) how
 * `what` ("writes", "reads") spread over n servers, from their max/mean
 * mm, their window max/mean wm (NAN when there is none: reads) and the
 * busiest server's share: "writes even", "writes nearly even (max/mean
 * 1.21)", "writes uneven: the busiest server takes 40.0% (max/mean
 * 3.20)", "writes even over the run, uneven in each window (window
 * max/mean 4.00)", "one server takes the writes (max/mean 7.90 of 8)" or
 * "one server at a time takes the writes (window max/mean 7.99 of 8)". */
void verdict_spread_words(char *buf, size_t cap, const char *what, double mm, double wm,
                          double hottest_share, uint32_t n);

/* Across seeds (samples): the verdict is the median's, and this says how
 * far it holds. Appends to buf (as verdict_spread_words) "; so in k of N
 * seeds (max/mean LO-HI)", k the seeds whose own max/mean mm[i] and
 * window max/mean wm[i] (NAN when there is none) earn the same words'
 * class as the medians med_mm and med_wm, LO-HI the range of mm (the
 * range is left out when it prints as one value; "in all N seeds" when k
 * is N). Nothing when nseeds < 2. */
void verdict_seeds_words(char *buf, size_t cap, const double *mm, const double *wm,
                         size_t nseeds, double med_mm, double med_wm, uint32_t n);

#endif
