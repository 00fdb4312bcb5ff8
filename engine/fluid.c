/* fluid.c -- the per-window fluid queueing model (fluid.h). */
#include "engine/fluid.h"

#include <assert.h>
#include <math.h>

double fluid_pk_wait(double lambda, double es2, double rho)
{
    assert(rho >= 0 && rho < 1);
    return lambda * es2 / (2 * (1 - rho));
}

double fluid_wait_tail(double rho, double mean_us, double t_us)
{
    if (!(rho > 0) || !(mean_us > 0))
        return 0;
    return rho * exp(-t_us * rho / mean_us);
}

double fluid_wait_quantile(double rho, double mean_us, double q)
{
    assert(q >= 0 && q < 1);
    if (!(rho > 0) || !(mean_us > 0) || q <= 1 - rho)
        return 0;
    return mean_us / rho * log(rho / (1 - q));
}

double fluid_arrive(fluid_server *f, uint64_t t_us, double w, double service_us, double u)
{
    double since = t_us > f->level_t_us ? (double)(t_us - f->level_t_us) : 0;
    double level = f->level_us > since ? f->level_us - since : 0;
    double batch = w * service_us;
    if (batch > f->batch_max_us)
        f->batch_max_us = batch;
    double largest = f->batch_max_us > f->batch_max_last_us ? f->batch_max_us
                                                            : f->batch_max_last_us;
    double slack = FLUID_SLACK_BATCHES * largest;
    double wait = level > slack ? level - slack : 0;
    if (f->wait_mean_us > 0) {
        double rho = f->rho < FLUID_RHO_MAX ? f->rho : FLUID_RHO_MAX;
        wait += fluid_wait_quantile(rho, f->wait_mean_us, u);
    }
    f->level_us = level + batch;
    if (t_us > f->level_t_us)
        f->level_t_us = t_us;
    f->n += w;
    f->sum_s += batch;
    f->sum_s2 += batch * service_us;
    return wait;
}

void fluid_window_end(fluid_server *f, uint64_t end_us)
{
    double t = end_us > f->window_start_us ? (double)(end_us - f->window_start_us) : 0;
    if (t > 0) {
        double rho = f->sum_s / t;
        f->rho = rho;
        f->wait_mean_us = 0;
        if (rho < 1 && f->n > 0) {
            double r = rho < FLUID_RHO_MAX ? rho : FLUID_RHO_MAX;
            double mean = fluid_pk_wait(f->n / t, f->sum_s2 / f->n, r);
            f->wait_mean_us = mean < t ? mean : t;
        }
    }
    f->n = f->sum_s = f->sum_s2 = 0;
    f->batch_max_last_us = f->batch_max_us;
    f->batch_max_us = 0;
    f->window_start_us = end_us;
}
