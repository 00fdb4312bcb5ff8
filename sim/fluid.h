/* fluid.h -- the weighted engine's queueing: a per-window fluid model.
 *
 * In weighted mode (sim/weighting.h) one simulated operation stands for
 * w, so a server cannot queue them one by one: w operations arriving in
 * one instant would wait behind each other as no real w operations spread
 * over their time do. Instead each server keeps, per report window, its
 * weighted demand (n = sum of w, sum of w x S and of w x S^2 over the
 * service times S of its operations), and at the window's end:
 *
 *   utilisation  rho = sum(w S) / T                  (T: the window's length)
 *   backlog      B'  = max(0, B + sum(w S) - T)      (work carried over)
 *   waiting      E[W] = lambda E[S^2] / (2 (1 - rho)) (Pollaczek-Khinchine,
 *                M/G/1: lambda = n / T, E[S^2] = sum(w S^2) / n), rho < 1
 *
 * Operations in the next window wait for the backlog still left when they
 * arrive, b(t) = max(0, B + (rho - 1)(t - t0)) (it drains at 1 - rho, or
 * grows while rho > 1), plus a draw of the M/G/1 waiting time W with
 *
 *   P(W > t) = rho exp(-t rho / E[W])
 *
 * the exponential approximation of the waiting time with the right
 * probability of waiting (rho, as in any M/G/1 queue) and the right mean
 * (P-K). It is exact for M/M/1 (its waiting time: P(W > t) =
 * rho exp(-mu (1 - rho) t), Kleinrock, Queueing Systems, Volume 1, 1975)
 * and is the usual exponential approximation of an M/G/1 waiting-time
 * tail from its first moments (Tijms, A First Course in Stochastic
 * Models, 2003: the tail is asymptotically exponential). rho is capped at FLUID_RHO_MAX for
 * the draw, and the mean wait at the window's length (a queue in a
 * finite window does not reach the stationary mean near rho = 1); at
 * rho >= 1 the backlog is the wait and no draw is added. The parameters
 * of window k come from window k - 1 (docs/weighted.md says what that
 * lag distorts).
 */
#ifndef REGIONSIM_FLUID_H
#define REGIONSIM_FLUID_H

#include <stdint.h>

#define FLUID_RHO_MAX 0.98

/* One server's fluid state (zeroed: idle, no history). */
typedef struct fluid_server {
    /* this window so far */
    double n, sum_s, sum_s2;     /* operations (sum of w), sum of w S, sum of w S^2 (us) */
    /* from the last window ended */
    double rho;                  /* its utilisation (may exceed 1) */
    double wait_mean_us;         /* the draw's mean wait (P-K, capped); 0 at rho >= 1 */
    double backlog_us;           /* work left when this window began */
    uint64_t window_start_us;    /* when this window began */
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

/* Adds an operation of service S standing for w operations to the
 * server's window. */
static inline void fluid_add(fluid_server *f, double w, double service_us)
{
    f->n += w;
    f->sum_s += w * service_us;
    f->sum_s2 += w * service_us * service_us;
}

/* The backlog an operation arriving at t_us (in the current window) finds. */
double fluid_backlog_at(const fluid_server *f, uint64_t t_us);

/* An operation's wait at t_us: the backlog it finds plus the draw of W
 * for u uniform in [0, 1) (fluid_wait_quantile with the window's rho,
 * capped at FLUID_RHO_MAX, and mean wait). */
double fluid_wait_draw(const fluid_server *f, uint64_t t_us, double u);

/* Ends the server's window [window_start_us, end_us): its utilisation,
 * backlog and waiting for the next window, which starts at end_us; the
 * window's sums start over. */
void fluid_window_end(fluid_server *f, uint64_t end_us);

#endif
