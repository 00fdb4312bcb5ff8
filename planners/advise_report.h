/* advise_report.h -- `regionsim advise`'s output (planners/advise_report.c). */
#ifndef REGIONSIM_ADVISE_REPORT_H
#define REGIONSIM_ADVISE_REPORT_H

#include <stdio.h>

#include "planners/advise.h"
#include "planners/advise_check.h"

/* The front as a table sorted by weighted score, the recommendation with
 * its plain-words comparison to the runner-up and to the layout unsalted,
 * and how many candidates were tried and how; then, with chk (NULL: the
 * check was skipped, and the text says so), whether the pick holds in
 * each regime checked, or what it changes to and why. scenario_name: the
 * file (or "default"). Deterministic: a function of its arguments. */
void advise_write_text(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const advise_check *chk, const char *scenario_name, const scenario *sc);

/* Every simulated candidate with its objectives (null: undefined), stage,
 * score (null off the front) and whether it is on the front; the pick;
 * the weights and objectives used; "check": null without chk, else its
 * seeds, shortlist and regimes (docs/advise.md#json). */
void advise_write_json(FILE *out, const advise_space *s, const advise_outcome *oc,
                       const advise_check *chk, const char *scenario_name, const scenario *sc);

#endif
