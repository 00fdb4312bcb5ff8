/* ycsb_workload.h -- YCSB workloads as YCSB describes them: property files.
 *
 * A YCSB run is described by java.util.Properties: a workload file (-P, or
 * one of the stock workloads a..f, built in here) and overrides (-p
 * name=value). Properties are collected as text with where each came from
 * (ycsb_properties), then resolved into a ycsb_workload: every value parsed
 * as YCSB parses it (Integer.parseInt, Long.parseLong, Double.parseDouble;
 * booleans more strictly than Boolean.parseBoolean) and range-checked, each
 * error naming the file:line (or the -p option) that set it. A property
 * CoreWorkload and Client (and the few others docs/ycsb.md lists) do not
 * read is refused with the nearest known name.
 *
 * Which setting wins, as YCSB's Client.parseArguments decides it: within
 * files (and stock workloads) the last one; a -p setting
 * (ycsb_properties_set_pair) over any file setting, whatever the order
 * they were given in; among -p settings the last one.
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

/* fieldlengthdistribution (CoreWorkload.getFieldLengthGenerator) and
 * scanlengthdistribution (uniform or zipfian only). HISTOGRAM is YCSB's,
 * which reads a file (fieldlengthhistogram); resolve refuses it. */
typedef enum ycsb_lengthdist {
    YCSB_LENGTH_CONSTANT = 0,
    YCSB_LENGTH_UNIFORM,
    YCSB_LENGTH_ZIPFIAN,
    YCSB_LENGTH_HISTOGRAM,
} ycsb_lengthdist;

/* regionsim's limit on records (keys are numbered in a uint32) and on the
 * bytes of one record (record.value_bytes). */
#define YCSB_RECORDS_MAX 4294967295u
#define YCSB_RECORD_BYTES_MAX 4294967295u
/* regionsim's limit on closed-loop clients (the scenario's "clients"). */
#define YCSB_THREADS_MAX 1000000

/* A resolved workload: CoreWorkload's choices plus what the simulator
 * needs of the Client (threads, target, time limit). Every field is set
 * by ycsb_workload_resolve; none points anywhere (copy it freely). */
typedef struct ycsb_workload {
    ycsb_props core;            /* operations and keys (workloads/ycsb.h), resolved:
                                 * recordcount 1 .. YCSB_RECORDS_MAX (0 given is
                                 * Integer.MAX_VALUE, as CoreWorkload.init makes it);
                                 * insertcount >= 0 (recordcount - insertstart if not
                                 * set), insertstart + insertcount <= recordcount;
                                 * operationcount >= 1 */
    int32_t fieldcount;         /* cells per record, >= 1, default 10 */
    int32_t fieldlength;        /* bytes a cell (the most, uniform/zipfian), default 100 */
    int32_t minfieldlength;     /* uniform/zipfian field lengths: from this, default 1 */
    ycsb_lengthdist fieldlengthdistribution; /* constant (default), uniform or zipfian */
    bool readallfields;         /* default true: a read reads every cell, else one */
    bool writeallfields;        /* default false: an update writes one field */
    int32_t minscanlength, maxscanlength; /* rows a scan reads: 1 <= min <= max;
                                           * defaults 1, 1000 */
    ycsb_lengthdist scanlengthdistribution; /* uniform (default) or zipfian */
    double target;              /* Client "target": ops/s in all (each thread paced at
                                 * target / threadcount); 0 = as fast as it can */
    int32_t threadcount;        /* Client "threadcount", 1 .. YCSB_THREADS_MAX, default 1 */
    int32_t maxexecutiontime;   /* Client "maxexecutiontime": seconds a phase may run,
                                 * 0 (default) = no limit */
} ycsb_workload;

/* requestdistribution's value for d, as YCSB spells it ("zipfian"); "?"
 * out of range. */
const char *ycsb_requestdist_name(ycsb_requestdist d);

typedef struct ycsb_properties ycsb_properties;

/* An empty property set. NULL if out of memory. */
ycsb_properties *ycsb_properties_new(void);
/* Frees p and everything it holds; NULL is fine. */
void ycsb_properties_free(ycsb_properties *p);

/* Whether `name` is a stock workload built in here ("a" .. "f", also
 * "workloada" .. "workloadf"; lower case). */
bool ycsb_builtin_exists(const char *name);

/* Adds stock workload `name` (the settings of YCSB's workloads/workload<x>
 * file at d9faaac8), as a file would: each setting's origin is
 * "workload<x>:LINE", LINE its line in YCSB's file. Returns 0, or -1 if
 * there is no such stock workload or out of memory. */
int ycsb_properties_load_builtin(ycsb_properties *p, const char *name);

/* Adds the properties of a file in java.util.Properties syntax (key=value,
 * key: value or key value; '#' and '!' comment lines; backslash line
 * continuation; \t \n \r \f \uXXXX escapes; the last setting wins). Bytes
 * are kept as they are (YCSB reads them as ISO-8859-1; \uXXXX gives
 * UTF-8 here). Returns 0, or -1 with "FILE:LINE: what was wrong" in err
 * ("FILE: ..." for the file as a whole: cannot open, a directory, larger
 * than 4 MiB): an unknown property names the nearest known one ("...
 * unknown property 'recordcont' (did you mean 'recordcount'?)"), a
 * malformed \uXXXX or a NUL byte is refused. Nothing is added on error. */
int ycsb_properties_load_file(ycsb_properties *p, const char *path, char *err, size_t errcap);

/* Sets one property as a file line would (a -p setting of the same name
 * stays); `origin` names where it came from in messages (e.g.
 * "scenario.ini:12"). Returns 0, or -1 with "ORIGIN: unknown property
 * 'NAME' ..." in err (with the nearest known name), or out of memory. */
int ycsb_properties_set(ycsb_properties *p, const char *name, const char *value,
                        const char *origin, char *err, size_t errcap);

/* Parses "name=value" (a -p option's argument: the name up to the first
 * '=', the value after it, both as given, no escapes) and sets it over any
 * file setting; its origin is "-p name=value". Returns 0, or -1 with
 * "-p ...: ..." in err (no '=', unknown property). */
int ycsb_properties_set_pair(ycsb_properties *p, const char *pair, char *err, size_t errcap);

/* Resolves the properties into *out, as CoreWorkload.init and Client read
 * them (defaults for what is not set). Returns 0, or -1 with "ORIGIN:
 * NAME: expected ..., found '...'" in err for a malformed or out-of-range
 * value ("NAME: ..." when the value is missing: operationcount must be
 * set), or a combination YCSB refuses or would crash on (e.g. insertstart
 * + insertcount > recordcount; every proportion 0). Every value set is
 * checked, also where YCSB reads it only for some settings (e.g.
 * hotspotdatafraction with a uniform distribution). Values of properties
 * without effect (docs/ycsb.md) are not checked, except workload,
 * measurementtype and measurement.interval, which YCSB always checks.
 * *out is zeroed first; on error it holds no meaningful workload. */
int ycsb_workload_resolve(const ycsb_properties *p, ycsb_workload *out, char *err, size_t errcap);

/* The properties as set, "name=value" separated by spaces, in the order
 * they were last set (for reports), into out (cap bytes, NUL-terminated,
 * cut if short). Names and values are escaped as java.util.Properties
 * reads them ('\\', ' ', '=', ':', '#', '!' and control bytes as \t \n \r
 * \f \uXXXX), so each space-separated item, as a line of a file, sets the
 * same property. Returns the full length, as snprintf. */
size_t ycsb_properties_describe(const ycsb_properties *p, char *out, size_t cap);

#endif
