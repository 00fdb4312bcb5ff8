/* ycsb_pattern.c -- the operations of a YCSB phase, as CoreWorkload makes them.
 *
 * YCSB runs a workload in two invocations of its Client: -load calls
 * CoreWorkload.doInsert once per record, -t calls doTransaction
 * operationcount times. Each invocation builds its own CoreWorkload, so
 * each phase here builds its own ycsb_keychooser (workloads/ycsb.h:
 * CoreWorkload.init's generators, checked draw for draw against YCSB) and
 * walks the same steps, in the same order of random draws, as these
 * methods of site.ycsb.workloads.CoreWorkload (YCSB d9faaac8):
 *
 *   doInsert                       keysequence.nextValue().intValue(), then
 *                                  buildValues: one length per field
 *   doTransaction                  operationchooser.nextString(), then
 *   doTransactionRead              nextKeynum(); fieldchooser if !readallfields
 *   doTransactionUpdate            nextKeynum(); buildValues if writeallfields,
 *                                  else buildSingleValue (fieldchooser, one length)
 *   doTransactionInsert            transactioninsertkeysequence.nextValue();
 *                                  buildValues; acknowledge(keynum)
 *   doTransactionScan              nextKeynum(); scanlength.nextValue().intValue();
 *                                  fieldchooser if !readallfields
 *   doTransactionReadModifyWrite   nextKeynum(); fieldchooser if !readallfields;
 *                                  values as an update
 *
 * What an operation becomes: a record (entity = the key number, named as
 * buildKeyName names it) with op PUT (an insert: fieldcount cells; an
 * update: one cell, or fieldcount with writeallfields), GET (a read of the
 * row), SCAN (scanlength rows from the row) or RMW. A value's bytes are the
 * field lengths drawn; which field a read or an update picks does not
 * change which row it touches, but it is drawn all the same, so the draws
 * stay in YCSB's order.
 *
 * Acknowledgement: YCSB acknowledges a transaction insert when db.insert
 * returns, and nextKeynum never picks a key above the acknowledged ones.
 * The simulator stores a write when it is issued (a read issued after it
 * finds it), so an insert is acknowledged when it is generated: reads
 * never pick a key that has not been written. With one YCSB thread this is
 * exactly YCSB's order; with several, YCSB's limit may lag by the inserts
 * still in flight.
 *
 * Time: without a target the phase is closed-loop (threadcount clients,
 * the engine times them); with a target, operations are spaced evenly at
 * target per second (YCSB's ClientThread throttles each of its threads to
 * target / threadcount, which together is the same rate).
 */
#include "workloads/ycsb_pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/rng.h"
#include "workloads/ycsb.h"
#include "workloads/ycsb_workload.h"

struct ycsb_gen {
    const ycsb_workload *w;
    ycsb_phase_kind phase;
    double rate_per_s;       /* 0: closed loop */
    uint64_t operations;     /* the phase makes this many ... */
    uint64_t made;           /* ... and has made this many */
    rng random;
    ycsb_keychooser keys;    /* CoreWorkload.init's generators (large: 128 KiB) */
    ycsb_uniform fieldchooser;      /* UniformLongGenerator(0, fieldcount - 1) */
    ycsb_uniform fieldlength_uniform; /* fieldlengthdistribution = uniform */
    ycsb_zipfian fieldlength_zipfian; /* ... = zipfian */
    ycsb_uniform scanlength_uniform;  /* scanlengthdistribution = uniform */
    ycsb_zipfian scanlength_zipfian;  /* ... = zipfian */
};

/* The Client's opcount: the load's insertcount (CoreWorkload's, resolved),
 * the run's operationcount. */
uint64_t ycsb_gen_operations(const pattern_config *cfg)
{
    const ycsb_props *p = &cfg->ycsb->core;
    int64_t n = cfg->ycsb_phase == YCSB_PHASE_LOAD ? p->insertcount : p->operationcount;
    return n > 0 ? (uint64_t)n : 0;
}

int ycsb_gen_reads(const pattern_config *cfg)
{
    const ycsb_props *p = &cfg->ycsb->core;
    return cfg->ycsb_phase == YCSB_PHASE_RUN &&
           (p->readproportion > 0 || p->scanproportion > 0 || p->readmodifywriteproportion > 0);
}

ycsb_gen *ycsb_gen_new(const pattern_config *cfg, uint64_t seed, char *err, size_t errcap)
{
    const ycsb_workload *w = cfg->ycsb;
    if (w->fieldcount < 1) {
        snprintf(err, errcap, "ycsb: fieldcount must be at least 1");
        return NULL;
    }
    if (w->core.zeropadding > RECORD_NAME_MAX - 4) {
        snprintf(err, errcap, "ycsb: zeropadding must be at most %d (names are at most %d "
                 "bytes here)", RECORD_NAME_MAX - 4, RECORD_NAME_MAX);
        return NULL;
    }
    if (w->fieldlengthdistribution == YCSB_LENGTH_HISTOGRAM) {
        snprintf(err, errcap, "ycsb: fieldlengthdistribution=histogram is not supported");
        return NULL;
    }
    ycsb_gen *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errcap, "out of memory for the YCSB workload");
        return NULL;
    }
    g->w = w;
    g->phase = cfg->ycsb_phase;
    g->rate_per_s = cfg->ycsb_rate_per_s;
    g->operations = ycsb_gen_operations(cfg);
    g->random = rng_stream(seed, 0x7963736200000000ull /* "ycsb" */);
    if (ycsb_keychooser_init(&g->keys, &w->core) < 0) {
        snprintf(err, errcap, "ycsb: insertstart + insertcount is more than recordcount "
                 "(CoreWorkload: \"Invalid combination of insertstart, insertcount and "
                 "recordcount.\")");
        free(g);
        return NULL;
    }
    ycsb_uniform_init(&g->fieldchooser, 0, w->fieldcount - 1);
    if (w->fieldlengthdistribution == YCSB_LENGTH_UNIFORM)
        ycsb_uniform_init(&g->fieldlength_uniform, w->minfieldlength, w->fieldlength);
    else if (w->fieldlengthdistribution == YCSB_LENGTH_ZIPFIAN)
        ycsb_zipfian_init(&g->fieldlength_zipfian, w->minfieldlength, w->fieldlength,
                          YCSB_ZIPFIAN_CONSTANT);
    if (w->scanlengthdistribution == YCSB_LENGTH_ZIPFIAN)
        ycsb_zipfian_init(&g->scanlength_zipfian, w->minscanlength, w->maxscanlength,
                          YCSB_ZIPFIAN_CONSTANT);
    else
        ycsb_uniform_init(&g->scanlength_uniform, w->minscanlength, w->maxscanlength);
    return g;
}

void ycsb_gen_free(ycsb_gen *g)
{
    free(g);
}

/* fieldlengthgenerator.nextValue(): one field's length in bytes. */
static uint64_t field_length(ycsb_gen *g)
{
    int64_t n;
    switch (g->w->fieldlengthdistribution) {
    case YCSB_LENGTH_UNIFORM:
        n = ycsb_uniform_next(&g->fieldlength_uniform, &g->random);
        break;
    case YCSB_LENGTH_ZIPFIAN:
        n = ycsb_zipfian_next(&g->fieldlength_zipfian, &g->random);
        break;
    default:
        n = g->w->fieldlength;
        break;
    }
    return n > 0 ? (uint64_t)n : 0;
}

/* Sets the record's cells and value bytes to those of buildValues (every
 * field) or buildSingleValue (one field, chosen by fieldchooser). */
static void build_values(ycsb_gen *g, int all_fields, record *out)
{
    uint64_t bytes = 0;
    if (all_fields) {
        for (int32_t f = 0; f < g->w->fieldcount; f++)
            bytes += field_length(g);
        out->cells = (uint32_t)g->w->fieldcount;
    } else {
        (void)ycsb_uniform_next(&g->fieldchooser, &g->random); /* which field */
        bytes = field_length(g);
        out->cells = 1;
    }
    out->value_bytes = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
}

/* The record's name: buildKeyName's, from the key number. */
static void name_record(const ycsb_gen *g, int64_t keynum, record *out)
{
    out->entity = (uint32_t)keynum;
    out->naming = g->w->core.orderedinserts ? NAMING_USER_ORDERED : NAMING_USER;
    out->name_pad = (uint8_t)g->w->core.zeropadding;
}

/* nextKeynum(), as an error message when YCSB would throw. */
static int next_keynum(ycsb_gen *g, int64_t *keynum, char *err, size_t errcap)
{
    if (ycsb_keychooser_next_keynum(&g->keys, &g->random, keynum) < 0) {
        snprintf(err, errcap, "ycsb: the request distribution divides by an empty range "
                 "(YCSB throws ArithmeticException)");
        return -1;
    }
    return 0;
}

static int make_transaction(ycsb_gen *g, record *out, char *err, size_t errcap)
{
    const ycsb_workload *w = g->w;
    int op = ycsb_keychooser_next_op(&g->keys, &g->random);
    int64_t keynum;
    if (op < 0) {
        snprintf(err, errcap, "ycsb: no operation has a proportion above 0");
        return -1;
    }
    if (op == YCSB_OP_INSERT) {
        keynum = ycsb_keychooser_next_insert(&g->keys);
        name_record(g, keynum, out);
        out->op = RECORD_PUT;
        build_values(g, 1, out);
        if (ycsb_ackcounter_acknowledge(&g->keys.transactioninsertkeysequence, keynum) < 0) {
            snprintf(err, errcap, "ycsb: too many unacknowledged insertion keys");
            return -1;
        }
        return 1;
    }
    if (next_keynum(g, &keynum, err, errcap) < 0)
        return -1;
    name_record(g, keynum, out);
    switch ((ycsb_op)op) {
    case YCSB_OP_READ:
        out->op = RECORD_GET;
        if (!w->readallfields)
            (void)ycsb_uniform_next(&g->fieldchooser, &g->random);
        break;
    case YCSB_OP_UPDATE:
        out->op = RECORD_PUT;
        build_values(g, w->writeallfields, out);
        break;
    case YCSB_OP_SCAN: {
        int64_t len = w->scanlengthdistribution == YCSB_LENGTH_ZIPFIAN
                          ? ycsb_zipfian_next(&g->scanlength_zipfian, &g->random)
                          : ycsb_uniform_next(&g->scanlength_uniform, &g->random);
        int32_t rows = (int32_t)(uint32_t)(uint64_t)len; /* .intValue() */
        if (!w->readallfields)
            (void)ycsb_uniform_next(&g->fieldchooser, &g->random);
        out->op = RECORD_SCAN;
        out->rows = rows > 0 ? (uint32_t)rows : 1;
        break;
    }
    case YCSB_OP_READMODIFYWRITE:
        if (!w->readallfields)
            (void)ycsb_uniform_next(&g->fieldchooser, &g->random);
        out->op = RECORD_RMW;
        build_values(g, w->writeallfields, out);
        break;
    case YCSB_OP_INSERT:
        break;
    }
    return 1;
}

int ycsb_gen_next(ycsb_gen *g, uint64_t *t_us, record *out, char *err, size_t errcap)
{
    if (g->made >= g->operations)
        return 0;
    uint64_t k = g->made++;
    *t_us = g->rate_per_s > 0 ? (uint64_t)((double)k * 1e6 / g->rate_per_s) : 0;
    if (g->phase == YCSB_PHASE_RUN)
        return make_transaction(g, out, err, errcap);
    /* doInsert: keysequence.nextValue().intValue() */
    int64_t keynum = (int32_t)(uint32_t)(uint64_t)ycsb_counter_next(&g->keys.keysequence);
    name_record(g, keynum, out);
    out->op = RECORD_PUT;
    build_values(g, 1, out);
    return 1;
}
