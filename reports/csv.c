/* csv.c -- placeholder, being written. */
#include "reports/report.h"
int csv_write(const char *dir, const sim_results *res, char *err, size_t errcap) { (void)dir; (void)res; (void)err; (void)errcap; return -1; }
