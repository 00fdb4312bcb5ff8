/* ycsb_pattern.c -- the operations of a YCSB phase. (Being written: issue 13.) */
#include "workloads/ycsb_pattern.h"

#include <stdio.h>

ycsb_gen *ycsb_gen_new(const pattern_config *cfg, uint64_t seed, char *err, size_t errcap)
{
    (void)cfg;
    (void)seed;
    snprintf(err, errcap, "ycsb: not built yet");
    return NULL;
}

void ycsb_gen_free(ycsb_gen *g)
{
    (void)g;
}

int ycsb_gen_next(ycsb_gen *g, uint64_t *t_us, record *out, char *err, size_t errcap)
{
    (void)g, (void)t_us, (void)out;
    snprintf(err, errcap, "ycsb: not built yet");
    return -1;
}
