/* dist.h -- the request distributions' names, and the two generators that
 * are not YCSB's CoreWorkload key choice.
 *
 * `distribution` (the entities pattern) names one of YCSB's
 * requestdistribution values (uniform, zipfian, latest, hotspot,
 * sequential, exponential), with YCSB's meaning: the entities pattern
 * chooses those keys with ycsb_keychooser (workloads/ycsb.h), as
 * CoreWorkload.init builds it and nextKeynum draws. `zipfian` is YCSB's:
 * a ScrambledZipfianGenerator over the loaded records plus twice the
 * expected inserts; `scrambled_zipfian` is accepted as its synonym.
 *
 * The generators here are for what YCSB does not have:
 *  - ranked_zipfian: a ZipfianGenerator (constant 0.99, Gray et al.'s
 *    method) over the ids themselves: id 0 the most popular, then 1, ...,
 *    so popular entities sit together. YCSB has the generator but no
 *    requestdistribution for it.
 *  - latest over a range that starts empty and grows (the sequence
 *    pattern's reads of the ids it inserted): SkewedLatestGenerator's
 *    shape, newest first, with YCSB's stale-eta quirk fixed (dist.c), which
 *    would otherwise make a generator built over 0 or 1 items degenerate.
 */
#ifndef REGIONSIM_DIST_H
#define REGIONSIM_DIST_H

#include <stdint.h>

#include "workloads/rng.h"

typedef enum dist_kind {
    DIST_UNIFORM = 0,    /* UniformLongGenerator over the loaded records */
    DIST_ZIPFIAN,        /* YCSB's zipfian: ScrambledZipfianGenerator */
    DIST_RANKED_ZIPFIAN, /* ZipfianGenerator over the ids: id 0 hottest (ours) */
    DIST_LATEST,         /* SkewedLatestGenerator over the inserted records */
    DIST_HOTSPOT,        /* HotspotIntegerGenerator over the loaded records */
    DIST_SEQUENTIAL,     /* SequentialGenerator over the loaded records */
    DIST_EXPONENTIAL,    /* ExponentialGenerator back from the newest record */
} dist_kind;             /* DIST_EXPONENTIAL is the last: lists walk up to it */

/* YCSB's Utils.fnvhash64: FNV-1a over the 8 bytes of v, least significant
 * first, returned as Java's Math.abs of the signed result. */
uint64_t ycsb_fnvhash64(uint64_t v);

/* The kind named `name`: "uniform", "zipfian", "ranked_zipfian",
 * "latest", "hotspot", "sequential", "exponential", or the synonym
 * "scrambled_zipfian" (DIST_ZIPFIAN). Returns 0, or -1 (out unchanged). */
int dist_kind_parse(const char *name, dist_kind *out);
/* The kind's name (DIST_ZIPFIAN: "zipfian"). */
const char *dist_kind_name(dist_kind kind);

/* zeta(n, 0.99) = sum_{i=1..n} i^-0.99, as ZipfianGenerator.zetastatic
 * adds it (the same terms in the same order, bit for bit) up to 10^8
 * terms; over that the first 10^6 terms are added and the rest is the
 * Euler-Maclaurin formula's (exact to double rounding), so it costs at
 * most about 1.5 s, not a minute for 2^32 terms. */
double dist_zeta(uint64_t n);

typedef struct dist dist;

/* A generator of kind DIST_RANKED_ZIPFIAN or DIST_LATEST (the others are
 * YCSB's, workloads/ycsb.h) over items >= 1 items. O(min(items, 10^8))
 * to build (the zeta). NULL if out of memory. */
dist *dist_new(dist_kind kind, uint64_t items);
void dist_free(dist *d);

/* Grows the item count to items (>= the current count): ranked_zipfian
 * draws over the larger range (the ranks do not move: id 0 stays the
 * most popular); latest favours the new last item. O(items - old). */
void dist_set_items(dist *d, uint64_t items);

/* The next item, in [0, items): one rng_double draw. */
uint64_t dist_next(dist *d, rng *r);

#endif
