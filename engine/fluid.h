/* fluid.h -- the weighted engine's queueing: a per-window fluid model.
 *
 * In weighted mode (scenario/weighting.h) one simulated operation stands for
 * w, so a server cannot queue them one by one: w operations arriving in
 * one instant would wait behind each other as no real w operations spread
 * over their time do. Each server's wait has two parts instead:
 *
 * - the backlog: the work in the server as a fluid, by Lindley's
 *   recursion on the simulated operations, each bringing w S (S its
 *   service time) and the server draining 1 us of work per us:
 *       level = max(0, level - (t - t_last)) before each arrival.
 *   An operation waits for the level less a slack of FLUID_SLACK_BATCHES
 *   batches, the largest batch the server had in this window or the
 *   last (or its own): max(0, level - 3 max(w S)). The slack keeps the
 *   w operations a batch stands for (which really arrive spread over the
 *   time to the next one) from waiting behind each other, nor behind the
 *   one or two batches that randomly routed operations (a hash, a salt)
 *   bunch on a server now and then, nor behind a long read's batch (w
 *   reads of 100 ms each are not 2 s of work at once), so the backlog is
 *   only overload: a level
 *   that grows while the demand exceeds the server (it is carried from
 *   window to window) and drains once it does not. No lag: it follows
 *   each operation.
 * - the M/G/1 wait, for the queueing of the operations it stands for
 *   while the server keeps up: per report window each server sums its
 *   weighted demand (n = sum of w, sum of w S and w S^2), and at the
 *   window's end
 *       rho  = sum(w S) / T                          (T: the window's length)
 *       E[W] = lambda E[S^2] / (2 (1 - rho))         (Pollaczek-Khinchine,
 *              lambda = n / T, E[S^2] = sum(w S^2) / n), rho < 1
 *   and each operation of the next window adds a draw of W with
 *       P(W > t) = rho exp(-t rho / E[W])
 *   the exponential approximation of the waiting time with the right
 *   probability of waiting (rho, as in any M/G/1 queue) and the right
 *   mean (P-K). It is exact for M/M/1 (its waiting time: P(W > t) =
 *   rho exp(-mu (1 - rho) t), Kleinrock, Queueing Systems, Volume 1,
 *   1975) and is the usual exponential approximation of an M/G/1
 *   waiting-time tail from its first moments (Tijms, A First Course in
 *   Stochastic Models, 2003: the tail is asymptotically exponential).
 *   rho is capped at FLUID_RHO_MAX for the draw and the mean wait held to
 *   the window's length (a queue in a finite window does not reach the
 *   stationary mean near rho = 1); at rho >= 1 no draw is added (the
 *   backlog is the wait). Its parameters come from the window before
 *   (one window of lag: docs/weighted.md).
 */
#ifndef REGIONSIM_FLUID_H
#define REGIONSIM_FLUID_H

#include <stdint.h>

#define FLUID_RHO_MAX 0.98
#define FLUID_SLACK_BATCHES 3.0

/* One server's fluid state (zeroed: idle, no history). */
typedef struct fluid_server {
    /* this window so far */
    double n, sum_s, sum_s2;     /* operations (sum of w), sum of w S, sum of w S^2 (us) */
    uint64_t window_start_us;    /* when this window began */
    /* from the last window ended */
    double rho;                  /* its utilisation (may exceed 1) */
    double wait_mean_us;         /* the draw's mean wait (P-K, capped); 0 at rho >= 1 */
    /* the backlog */
    double level_us;             /* work in the server just after the last arrival */
    uint64_t level_t_us;         /* that arrival's time */
    double batch_max_us;         /* the largest batch (w S) of this window so far */
    double batch_max_last_us;    /* ... and of the last window */
} fluid_server;

/* Pollaczek-Khinchine's mean wait in queue of an M/G/1 server:
 * lambda E[S^2] / (2 (1 - rho)), for 0 <= rho < 1 (lambda per us, E[S^2]
 * in us^2). */
double fluid_pk_wait(double lambda, double es2, double rho);

/* P(W > t) of the exponential approximation: rho exp(-t rho / mean), 0
 * when rho or mean is 0. */
double fluid_wait_tail(double rho, double mean_us, double t_us);

/* The q-quantile (0 <= q < 1) of that W: 0 when q <= 1 - rho, else
 * (mean / rho) ln(rho / (1 - q)). A draw of W is fluid_wait_quantile(U)
 * for U uniform in [0, 1). */
double fluid_wait_quantile(double rho, double mean_us, double q);

/* An operation of service S standing for w arrives at t_us (not before
 * the last): returns its wait, the backlog less FLUID_SLACK_BATCHES
 * of the largest batches (w S) of this window and the last plus the draw
 * of W for u uniform in [0, 1) (fluid_wait_quantile with the last
 * window's rho, capped at FLUID_RHO_MAX, and mean wait), and adds its
 * work to the level and to the window's sums. */
double fluid_arrive(fluid_server *f, uint64_t t_us, double w, double service_us, double u);

/* Ends the server's window [window_start_us, end_us): its utilisation
 * and mean wait for the next window, which starts at end_us; the
 * window's sums start over (the level carries on). */
void fluid_window_end(fluid_server *f, uint64_t end_us);

#endif
