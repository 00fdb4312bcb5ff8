/* budget_impl.h -- what the budget's source files share (not a public
 * interface: only engine/budget*.c include it; the API is engine/budget.h).
 *
 * The budget is one concept in three jobs, one file each:
 *  - budget.c: the estimate of what a scenario's run needs
 *    (budget_estimate_run), from the scenario alone;
 *  - budget_limit.c: the most this process may use (budget_limit_of):
 *    --max-memory, ulimit -v and -d, the physical memory;
 *  - budget_check.c: whether the estimate fits the limit, and the message
 *    when it does not (budget_check, budget_admit, budget_format_size).
 * The files share one cost of the estimate, which the message reads to
 * tell which of the truth's two costs is the larger.
 */
#ifndef REGIONSIM_BUDGET_IMPL_H
#define REGIONSIM_BUDGET_IMPL_H

#include "engine/budget.h"

/* The truth of reads: a write kept to score reads against, 32 bytes in
 * its entity's list + 24 in the global list (engine/truth.c). */
#define TRUTH_WRITE 56.0

#endif
