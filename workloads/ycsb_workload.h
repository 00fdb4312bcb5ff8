/* ycsb_workload.h -- YCSB workloads as YCSB describes them: property files.
 *
 * A YCSB run is described by java.util.Properties: a workload file (-P, or
 * one of the stock workloads a..f, built in here) and overrides (-p
 * name=value), later settings replacing earlier ones as in YCSB's Client.
 * Properties are collected as text with where each came from
 * (ycsb_properties), then resolved into a ycsb_workload: every value parsed
 * as YCSB parses it (Integer.parseInt, Long.parseLong, Double.parseDouble,
 * Boolean.parseBoolean) and range-checked, each error naming the file:line
 * (or the -p option) that set it. A property no version of YCSB's
 * CoreWorkload or Client knows is refused with the nearest known name.
 *
 * Which YCSB: CoreWorkload and Client of brianfrankcooper/YCSB at commit
 * d9faaac8 (tests/data/ycsb_reference.md); docs/ycsb.md lists every
 * property, its default and what the simulator does with it.
 */
#ifndef REGIONSIM_YCSB_WORKLOAD_H
#define REGIONSIM_YCSB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/ycsb.h"

/* fieldlengthdistribution (CoreWorkload.getFieldLengthGenerator). */
typedef enum ycsb_lengthdist {
    YCSB_LENGTH_CONSTANT = 0,
    YCSB_LENGTH_UNIFORM,
    YCSB_LENGTH_ZIPFIAN,
    YCSB_LENGTH_HISTOGRAM,
} ycsb_lengthdist;

/* A resolved workload: CoreWorkload's choices plus what the simulator
 * needs of the Client (threads, target). */
typedef struct ycsb_workload {
    ycsb_props core;            /* operations and keys (workloads/ycsb.h) */
    int32_t fieldcount;         /* cells per record, default 10 */
    int32_t fieldlength;        /* default 100 */
    int32_t minfieldlength;     /* uniform field lengths: from this, default 1 */
    ycsb_lengthdist fieldlengthdistribution; /* default constant */
    bool readallfields;         /* default true */
    bool writeallfields;        /* default false: an update writes one field */
    int32_t minscanlength, maxscanlength; /* defaults 1, 1000 */
    ycsb_lengthdist scanlengthdistribution; /* uniform (default) or zipfian */
    double target;              /* Client "target": ops/s in all; 0 = as fast as it can */
    int32_t threadcount;        /* Client "threadcount", default 1 */
    /* ... the header grows with the properties docs/ycsb.md lists */
} ycsb_workload;

typedef struct ycsb_properties ycsb_properties;

/* An empty property set. NULL if out of memory. */
ycsb_properties *ycsb_properties_new(void);
void ycsb_properties_free(ycsb_properties *p);

/* Whether `name` is a stock workload built in here ("a" .. "f", also
 * "workloada" .. "workloadf"). */
bool ycsb_builtin_exists(const char *name);

/* Adds stock workload `name` (as YCSB's workloads/workload<name> file
 * sets it). Returns 0, or -1 if there is no such stock workload. */
int ycsb_properties_load_builtin(ycsb_properties *p, const char *name);

/* Adds the properties of a file in java.util.Properties syntax. Returns 0,
 * or -1 with "FILE:LINE: what was wrong" in err (an unknown property names
 * the nearest known one: "... unknown property 'recordcont' (did you mean
 * 'recordcount'?)"). */
int ycsb_properties_load_file(ycsb_properties *p, const char *path, char *err, size_t errcap);

/* Sets one property; `origin` names where it came from in messages (e.g.
 * "-p recordcount=abc" or "scenario.ini:12"). Returns 0, or -1 with a
 * message in err (unknown property, with the nearest known name). */
int ycsb_properties_set(ycsb_properties *p, const char *name, const char *value,
                        const char *origin, char *err, size_t errcap);

/* Parses "name=value" (a -p option's argument) and sets it. Returns 0, or
 * -1 with a message in err. */
int ycsb_properties_set_pair(ycsb_properties *p, const char *pair, char *err, size_t errcap);

/* Resolves the properties into *out, as CoreWorkload.init and Client read
 * them (defaults for what is not set). Returns 0, or -1 with "ORIGIN:
 * NAME: expected ..., found '...'" in err for a malformed or out-of-range
 * value, or a combination YCSB refuses (e.g. insertstart + insertcount >
 * recordcount). */
int ycsb_workload_resolve(const ycsb_properties *p, ycsb_workload *out, char *err, size_t errcap);

/* The properties as set, "name=value" separated by spaces, in the order
 * they were last set (for reports), into out (cap bytes, NUL-terminated,
 * cut if short). Returns the full length, as snprintf. */
size_t ycsb_properties_describe(const ycsb_properties *p, char *out, size_t cap);

#endif
