/* html.c -- placeholder, being written. */
#include "reports/report.h"
void html_write(FILE *out, const sim_results *res) { (void)out; (void)res; }
