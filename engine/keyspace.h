/* keyspace.h -- the key space x time heatmap of a run (Key Visualizer style).
 *
 * Rows are key buckets of about equal row count, columns are report
 * windows. The buckets can only be cut once the run is over (they follow
 * the rows stored at the end), so during the run the sampler keeps, for
 * each window and kind (writes, read RPCs), a uniform random sample of the
 * keys it saw: reservoir sampling drawing from its own random stream, by
 * Li's Algorithm L (ACM TOMS 20(4), 1994), which jumps over the keys it
 * will not keep, so most keys cost one comparison and no random draw. At the end every sampled key is placed in its bucket
 * and the window's exact total is shared among the buckets in proportion
 * (largest remainders), so a window's cells always sum to its total and are
 * exact whenever the window saw no more keys than the sample holds.
 *
 * The sample is 1024 keys a window for the first 1024 windows, 64 up to
 * window 16384 and 8 after, which bounds the memory of very long runs.
 */
#ifndef REGIONSIM_KEYSPACE_H
#define REGIONSIM_KEYSPACE_H

#include <stdint.h>

#include "core/cluster.h"
#include "engine/result.h"
#include "workloads/rng.h"

enum { KEYSPACE_WRITES = 0, KEYSPACE_READS = 1 };

/* One window's sample of one kind (keyspace.c's; here for keyspace_add). */
typedef struct key_reservoir {
    uint8_t **keys;       /* cap slots; keys[i] holds lens[i] bytes */
    uint32_t *lens;
    uint32_t cap, n;      /* room and slots filled */
    uint64_t seen;        /* keys offered */
    uint64_t next;        /* once full: the number of the next key to keep */
    double w;             /* Algorithm L's running weight */
} key_reservoir;

typedef struct keyspace_sampler {
    key_reservoir *windows;        /* 2 per window: writes, reads */
    uint32_t nwindows;             /* windows with room */
    rng random;
    uint64_t weight;               /* operations a key stands for (the weighted engine; 1) */
} keyspace_sampler;

/* An empty sampler drawing from `random`. */
void keyspace_init(keyspace_sampler *ks, rng random);

/* keyspace_add's every case (keyspace.c). */
int keyspace_add_slow(keyspace_sampler *ks, uint32_t w, int kind, keyref k);

/* Counts key k as one operation of `kind` in window w (any w: room grows).
 * Returns 0, or -1 if out of memory. Inline for its common case, a full
 * sample that skips the key (Algorithm L): one count and one comparison. */
static inline int keyspace_add(keyspace_sampler *ks, uint32_t w, int kind, keyref k)
{
    if (w < ks->nwindows) {
        key_reservoir *r = &ks->windows[2 * (size_t)w + (size_t)kind];
        if (r->cap && r->n == r->cap && r->seen + 1 < r->next) {
            r->seen++;
            return 0;
        }
    }
    return keyspace_add_slow(ks, w, kind, k);
}

/* The heatmap over nwindows windows, its buckets cut from the rows stored in
 * c now: min(nbuckets, rows) buckets, bucket b starting at the row of rank
 * floor(b * rows / buckets) (bucket 0 at the start of the table). Fills
 * *out (owned arrays; free with keyspace_heatmap_free). Returns 0, or -1 if
 * out of memory (*out then empty). */
int keyspace_finish(keyspace_sampler *ks, cluster *c, uint32_t nbuckets, uint32_t nwindows,
                    keyspace_heatmap *out);

void keyspace_release(keyspace_sampler *ks);
void keyspace_heatmap_free(keyspace_heatmap *h);

#endif
