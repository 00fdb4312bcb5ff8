/* ycsb_pattern.h -- the operations of a YCSB phase (pattern kind ycsb).
 *
 * Internal to workloads/: pattern.c delegates PATTERN_YCSB to it. One
 * generator runs one phase of a ycsb_workload: the load (CoreWorkload's
 * doInsert, insertcount times) or the run (doTransaction, operationcount
 * times), then it is exhausted.
 */
#ifndef REGIONSIM_YCSB_PATTERN_H
#define REGIONSIM_YCSB_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "workloads/pattern.h"
#include "workloads/record.h"

typedef struct ycsb_gen ycsb_gen;

/* A generator for cfg (kind PATTERN_YCSB), its randomness drawn from
 * seed. NULL with a message in err if out of memory or YCSB would refuse
 * the workload. */
ycsb_gen *ycsb_gen_new(const pattern_config *cfg, uint64_t seed, char *err, size_t errcap);
void ycsb_gen_free(ycsb_gen *g);

/* Operations the phase makes: the load's insertcount, the run's
 * operationcount (YCSB's Client opcount). */
uint64_t ycsb_gen_operations(const pattern_config *cfg);

/* Whether the phase reads: a run with reads, scans or read-modify-writes. */
int ycsb_gen_reads(const pattern_config *cfg);

/* The next operation, as pattern_next: 1, or 0 when the phase has made
 * all its operations, or -1 with a message in err. */
int ycsb_gen_next(ycsb_gen *g, uint64_t *t_us, record *out, char *err, size_t errcap);

#endif
