/* verdict.h -- how evenly a load spreads over the servers, in words.
 *
 * One set of thresholds for every report that judges a spread (the HTML
 * summary's verdict column, reports/html_summary.c; the reasons `regionsim
 * advise` gives, planners/advise_report.c), so that a scheme called "even"
 * in one is never "slightly uneven" in another. On a max/mean m of n
 * servers (1 = even, n = all on one):
 *   m >= VERDICT_ONE_SERVER * n      one server takes it (n >= 2; and m at
 *                                    least VERDICT_UNEVEN, for n of 2 or 3)
 *   m >= VERDICT_UNEVEN              uneven
 *   m >  VERDICT_EVEN                nearly even
 *   otherwise                        even
 * The thresholds are fixed, not tuned per scenario; docs/reports.md lists
 * them for users.
 *
 * Overload comes before any spread: a run whose servers could not keep up
 * measured a queue, not a key, so every verdict (HTML summary, text, JSON,
 * the registry's `overloaded` figure) says "overloaded" first. A run is
 * overloaded when its busiest server had more work than time (busy over
 * VERDICT_OVERLOAD_BUSY, 100%), or when it completed less than
 * VERDICT_OVERLOAD_DONE of what it was offered (its replies within the
 * measured run fell short of its arrivals by more than 1%: the queue grew
 * by that much, where a run that keeps up has only the few in flight). An operation's reply time is fixed when it is issued
 * (core/server.h's FIFO queues, engine/engine_ops.c), so what is still
 * queued at the end is served after it, with no new arrivals, and its
 * latency runs to that reply: a latency can be longer than the run, and
 * verdict_drain_note says why when one is.
 */
#ifndef REGIONSIM_VERDICT_H
#define REGIONSIM_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/result.h"

#define VERDICT_EVEN 1.10      /* max/mean at most this: even */
#define VERDICT_UNEVEN 1.50    /* at least this: uneven (stats.h's STATS_STEADY_HOTSPOT) */
#define VERDICT_ONE_SERVER 0.5 /* max/mean at least this share of n: one server takes it */
#define VERDICT_RPCS_MANY 2.0  /* RPCs per read at least this: reads fan out */
#define VERDICT_OVERLOAD_BUSY 1.0  /* busiest server's busy above this: overloaded */
#define VERDICT_OVERLOAD_DONE 0.99 /* achieved below this share of offered: overloaded */

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

/* Whether run was overloaded: busiest_busy > VERDICT_OVERLOAD_BUSY, or
 * achieved < VERDICT_OVERLOAD_DONE x offered. A run that covered no time
 * or offered nothing is not (0). */
int verdict_overloaded(const run_result *run);

/* "overloaded: 316 of 1000 ops/s done, busiest server 929.4% busy" into
 * buf (cap bytes, NUL-terminated, truncated if short) when run was
 * overloaded, else ""; returns whether it was. */
int verdict_overload_note(char *buf, size_t cap, const run_result *run);

/* The same words from the figures achieved_ops_per_s, offered_ops_per_s
 * and busiest_busy (what a sweep's table keeps of a run), for a run the
 * figure `overloaded` called so. */
void verdict_overload_words(char *buf, size_t cap, double achieved, double offered,
                            double busiest);

/* Why a latency is longer than the measured run, when one is (max latency
 * over duration - measure_from), into buf (cap bytes), else "": the
 * first of p99, p99.9 and max that is, e.g. "p99 14630 s is longer than
 * the 30 min run: 1231362 operations were still queued at its end and
 * drained after it, with no new arrivals" (with a measure_from:
 * "longer than the 20 min measured: ... at the run's end ..."); returns
 * whether one is. */
int verdict_drain_note(char *buf, size_t cap, const run_result *run);

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
