/* budget_limit.c -- the most memory this process may use
 * (budget_limit_of).
 *
 * The limit is the smallest of four, with which one it is, so that the
 * message can say what to change: the max_memory setting (--max-memory),
 * the soft limits RLIMIT_AS (ulimit -v) and RLIMIT_DATA (ulimit -d), and
 * the machine's physical memory (sysconf _SC_PHYS_PAGES x _SC_PAGESIZE).
 * A ulimit comes with what the process already uses of it (its address
 * space or its data, from /proc/self/statm; 0 where there is none), which
 * the run cannot have.
 *
 * Design. This is the only part of the budget that asks the system
 * anything: the estimate (budget.c) depends on the scenario alone, so it
 * is the same on every machine. Physical memory is a default, not a hard
 * limit: a --max-memory the user sets replaces it, while a ulimit is the
 * kernel's and stays. The trade-off: physical memory is the machine's
 * total, not what is free, so other processes' use is not counted, and
 * the limit is read once, before the run.
 */
#include "engine/budget_impl.h"

#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- the limit ---- */

/* Field `field` (0: size, 5: data) of /proc/self/statm in bytes; 0 if
 * there is none. */
static uint64_t statm_bytes(int field)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long long v[7] = { 0 };
    int n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6]);
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    if (n != 7 || page <= 0 || v[field] > UINT64_MAX / (unsigned long long)page)
        return 0;
    return (uint64_t)v[field] * (uint64_t)page;
}

static void lower_to(budget_limit *lim, uint64_t bytes, budget_source source, uint64_t in_use)
{
    if (bytes < lim->bytes) {
        lim->bytes = bytes;
        lim->source = source;
        lim->in_use = in_use;
    }
}

budget_limit budget_limit_of(const scenario *sc)
{
    budget_limit lim = { UINT64_MAX, 0, BUDGET_NO_LIMIT };
    if (sc->max_memory)
        lower_to(&lim, sc->max_memory, BUDGET_MAX_MEMORY, 0);
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lower_to(&lim, (uint64_t)rl.rlim_cur, BUDGET_ULIMIT_V, statm_bytes(0));
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        lower_to(&lim, (uint64_t)rl.rlim_cur, BUDGET_ULIMIT_D, statm_bytes(5));
    /* Physical memory is the default limit, not a hard one: swap and an
     * estimate that is an upper bound (a closed loop's) can make a run fit
     * where the estimate says it would not, so a --max-memory the user sets
     * replaces it. ulimit is the kernel's and stays. */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (!sc->max_memory && pages > 0 && page > 0 &&
        (uint64_t)pages <= UINT64_MAX / (uint64_t)page)
        lower_to(&lim, (uint64_t)pages * (uint64_t)page, BUDGET_PHYSICAL, 0);
    return lim;
}
