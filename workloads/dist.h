/* dist.h -- YCSB's request distributions, with YCSB's definitions.
 *
 * Each generator draws an item number in [0, items) from the run's RNG.
 * Definitions, constants and defaults follow YCSB (site.ycsb.generator and
 * CoreWorkload): uniform; zipfian (ZipfianGenerator, constant 0.99, Gray
 * et al.'s method); scrambled zipfian (ScrambledZipfianGenerator: a zipfian
 * over YCSB's fixed 10^10 items hashed with FNV-64 onto the key space);
 * latest (SkewedLatestGenerator: zipfian over recency, the newest item the
 * most popular); hotspot (HotspotIntegerGenerator, hot data fraction 0.2,
 * hot operation fraction 0.8); sequential (SequentialGenerator: 0, 1, ...
 * wrapping); exponential (ExponentialGenerator, percentile 95, range
 * 0.8571428571 x items).
 */
#ifndef REGIONSIM_DIST_H
#define REGIONSIM_DIST_H

#include <stdint.h>

#include "workloads/rng.h"

typedef enum dist_kind {
    DIST_UNIFORM = 0,
    DIST_ZIPFIAN,
    DIST_SCRAMBLED_ZIPFIAN,
    DIST_LATEST,
    DIST_HOTSPOT,
    DIST_SEQUENTIAL,
    DIST_EXPONENTIAL,
} dist_kind;

/* YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of v, least significant
 * first, returned as Java's Math.abs of the signed result. */
uint64_t ycsb_fnvhash64(uint64_t v);

/* The kind named `name` ("uniform", "zipfian", "scrambled_zipfian",
 * "latest", "hotspot", "sequential", "exponential"). Returns 0, or -1. */
int dist_kind_parse(const char *name, dist_kind *out);
const char *dist_kind_name(dist_kind kind);

typedef struct dist dist;

/* A generator over items >= 1 items. NULL if out of memory. */
dist *dist_new(dist_kind kind, uint64_t items);
void dist_free(dist *d);

/* Grows the item count (new records were inserted): `latest` then favours
 * the new last item; the others draw from the larger range. */
void dist_set_items(dist *d, uint64_t items);

/* The next item, in [0, items). */
uint64_t dist_next(dist *d, rng *r);

#endif
