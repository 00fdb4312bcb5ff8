/* jemalloc_conf.c -- how the program asks jemalloc to behave.
 *
 * jemalloc reads the string `malloc_conf` at start-up. dirty_decay_ms:1000
 * keeps freed pages for reuse about a second before returning them to the
 * kernel (10 s by jemalloc's default; it was 0, at once, until issue 28:
 * below); retain:true (jemalloc's default on Linux; false until issue 30:
 * the end of this comment) returns pages with madvise and keeps the
 * address range for later, instead of unmapping it. Linked into the program
 * and the benchmarks, not into a library: an archive member nobody
 * references would be dropped.
 *
 * The price was kernel time. The row stores grew by realloc (x1.25 past
 * 1 MiB) and a split copied half a store into a new one, so most bytes a
 * run ever stored landed on fresh pages: bench_writes (10 million writes
 * a scheme, monotonic and salted, each in its own process) took about
 * 590,000 minor page faults for 2 x 250 MB of peak RSS, and spent 1.3 s
 * in the kernel to 1.8 s in user space (release build); `regionsim
 * compare`, 1.6 of 4.9 s. The system calls themselves were few (7,000
 * mmap and munmap); it was the faults. Measured alternatives (2-core VM,
 * Linux, jemalloc 5.3.0, issue 15), bench_writes' peak RSS per row
 * (monotonic, salted) then compare's peak RSS, against 25.0, 26.0 B and
 * 94 MB as set here:
 *  - any dirty_decay_ms from 1 ms to 10 s (with retain:false): 0.4-0.5 s
 *    in the kernel, but 26-36 B a row, varying from run to run, and
 *    compare 122-142 MB (+30-50%). jemalloc looks at the clock only every
 *    thousand or so allocator calls (with background_thread:true, at most
 *    every 100 ms), and this program makes few, so even 1 ms keeps much
 *    of what is freed; the memory budget's estimates (engine/budget.c: 1.25
 *    (K + 14) bytes a row, 113 MiB for compare) would fall short;
 *  - dirty_decay_ms:1000 with oversize_threshold:1048576 (arrays of 1 MiB
 *    and more purged at once): 0.9 s in the kernel, 26.3 and 27.7 B a
 *    row, compare 110 MB (+17%): a third of the kernel time for a sixth
 *    more memory;
 *  - retain:true (jemalloc's default), dirty_decay_ms:0: 1.0 s in the
 *    kernel, and the address space peaks 45-60% higher (an earlier run of
 *    110 million rows held 6.6 GB of address space for 2.9 GB resident,
 *    and under `ulimit -v` ran out of memory long before the memory
 *    budget said it would; unmapped, 2.8 GB);
 *  - muzzy_decay_ms: no effect, since with dirty_decay_ms:0 freed pages
 *    never become muzzy;
 *  - thp:always: no change (the machine gives no huge pages: AnonHugePages
 *    stays 0 kB);
 *  - glibc's malloc instead (it grows large blocks in place with mremap):
 *    0.5 s in the kernel and 23-24 B a row in bench_writes, though compare
 *    then peaks at 134 MB.
 * So the settings stay, and the row store no longer grows its big arrays
 * through jemalloc: an array of 256 KiB and more is a mapping of its own,
 * grown by mremap, and a split hands its upper pages to the new store
 * instead of copying them (core/store_exact.c). Then (release build, same
 * machine, under load): bench_writes 116,000 faults, 0.3 s in the kernel,
 * peak RSS 22.9 and 24.0 B a row; `regionsim compare` 711,000 to 276,000
 * faults, 1.7 to 0.8 s in the kernel, peak RSS 146 to 112-130 MB (its
 * threads make the peak vary); `regionsim run --scheme monotonic
 * --duration 2h` 210,000 to 40,000 faults (one a page of its 163 MB peak
 * RSS: each page is written once), 0.38 to 0.11 s. What faults remain
 * are first touches of memory the run keeps, and in compare the realloc
 * of arrays under 256 KiB (a lower threshold, 64 KiB: 204,000 faults,
 * 0.7 s, for four times the mappings against vm.max_map_count).
 *
 * Then (issue 28: several seeds by default, so compare's wall time counts
 * five times) dirty_decay_ms went from 0 to 1000. What was left in the
 * kernel was no longer the big arrays' faults but the small ones': the
 * row stores' arrays under 256 KiB grow by realloc, and with nothing kept
 * each growth was a fresh mmap, a copy and a munmap (about 1,600 of each
 * in one run of revdomain: strace -k), and every munmap in a process whose
 * other thread runs on the other core is a TLB shootdown (an IPI: perf
 * showed native_write_msr and smp_call_function_many_cond, 5% of
 * compare's samples). Kept for a second, freed pages are reused by the
 * next growth. The objection above (memory kept, the budget's estimates)
 * weighs less now that the big arrays are mappings of their own, which
 * the decay does not keep. Measured (2-core VM, loaded, medians of 5 runs of
 * `regionsim compare`, same binary, MALLOC_CONF): dirty_decay_ms 0:
 * 0.51 s in the kernel, peak RSS 142 MB (122-143); 200: 0.37 s, 150 MB
 * (124-160); 1000: 0.36 s, 144 MB (129-155); `compare --samples 5`: 3.03
 * to 1.94 s in the kernel, peak 151 to 162 MB. The peak's spread (the
 * threads' timing) is wider than the change. retain stays false (the
 * address space, above). Arrays mapped from 1 MiB instead of 256 KiB
 * (so that more of them reuse kept pages): no gain, peak +10%.
 *
 * Issue 30: retain went from false to true. Unmapping freed extents one by
 * one punches holes in jemalloc's mappings, and each hole is one mapping
 * more (a VMA split). A run that grows a million regions of a few rows
 * (`regionsim run --scheme md5 --region-size 1KiB --split-limit 0
 * --duration 2h`: 515,000 regions a seed, three seeds, two at a time)
 * reached vm.max_map_count (65,530) while the first seed's regions were
 * freed beside the other seeds' growing ones, and every munmap after that
 * failed: 10,872 times "<jemalloc>: Error in munmap(): Cannot allocate
 * memory" on stderr (the 5-hour run: 617,123 times). With retain:true
 * jemalloc never unmaps: pages go back with madvise, which splits no
 * mapping. Same run, same binary otherwise (2-core VM, load average 8):
 * at most 70 mappings (sampled each second) and nothing on stderr, against
 * 65,583. The objection above, address space, no longer holds since the
 * row store's big arrays are mappings of their own, outside jemalloc:
 * the default compare peaks at 237 MB of address space (VmPeak) against
 * 230 MB with retain:false, a 2-hour salted run at 162 against 169 MB;
 * peak RSS within noise (159 and 166 MB; 147 and 152 MB).
 */
#define _GNU_SOURCE /* madvise's MADV_HUGEPAGE */
#include "cli/jemalloc_conf.h"

#include <stddef.h>

#ifdef REGIONSIM_JEMALLOC
const char *malloc_conf = "dirty_decay_ms:1000,retain:true";
#endif

/* ---- huge pages for a run of many regions ---------------------------------
 *
 * A run that grows a million regions of a few rows each (issue 30:
 * `regionsim run --scheme md5 --region-size 1KiB --split-limit 0 --duration
 * 5h`) spends its time waiting for memory: each write lands in a random
 * region, and its route, region, store and rows are a few small objects
 * scattered over gigabytes of jemalloc's pages. On a virtual machine a TLB
 * miss walks two page tables, and most of these accesses miss the TLB.
 * Transparent huge pages (2 MiB) cover 512 times the memory per TLB entry.
 * The kernel gives them only to memory that asks (madvise(MADV_HUGEPAGE);
 * /sys/kernel/mm/transparent_hugepage/enabled is "madvise" here, and
 * Debian's default), and jemalloc's own `thp:always` asks for all of its
 * memory in every run. Measured (2-core VM, farm-bench A/B, same binary,
 * MALLOC_CONF=thp:always): the 1-hour run of the command above took 0.52x
 * to 0.77x of its CPU time on a quiet machine (0.95x with three other
 * processes' builds and benchmarks on both cores) for 7% more peak RSS
 * (483 to 518 MiB), and the default `regionsim compare`, whose regions are
 * few and whose big arrays are the stores' own mappings, 1.05x the CPU
 * and 9% more memory (759 to 827 MiB). So huge pages are asked for only by
 * a run the memory budget expects to grow many regions (huge_pages_begin's
 * caller decides), through jemalloc's extent hooks: each arena's hooks are
 * wrapped so that an extent jemalloc maps is advised MADV_HUGEPAGE, and
 * every other hook calls the arena's own. */
#ifdef REGIONSIM_JEMALLOC
#include <jemalloc/jemalloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define ARENAS_MAX 1024 /* arenas whose hooks are wrapped, at most */

struct huge_pages {
    extent_hooks_t hooks;          /* first: jemalloc hands &hooks back to each hook */
    extent_hooks_t *base;          /* the hooks the arenas had (jemalloc's default) */
    unsigned narenas;
    unsigned char wrapped[ARENAS_MAX]; /* arena i's hooks are these */
};

static extent_hooks_t *base_of(extent_hooks_t *h)
{
    return ((huge_pages *)h)->base;
}

static void *huge_alloc(extent_hooks_t *h, void *addr, size_t size, size_t align, bool *zero,
                        bool *commit, unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    void *p = b->alloc(b, addr, size, align, zero, commit, arena);
    if (p)
        (void)madvise(p, size, MADV_HUGEPAGE); /* advice: refused, the pages stay small */
    return p;
}

static bool huge_dalloc(extent_hooks_t *h, void *a, size_t n, bool committed, unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->dalloc(b, a, n, committed, arena);
}

static void huge_destroy(extent_hooks_t *h, void *a, size_t n, bool committed, unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    b->destroy(b, a, n, committed, arena);
}

static bool huge_commit(extent_hooks_t *h, void *a, size_t n, size_t off, size_t len,
                        unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->commit(b, a, n, off, len, arena);
}

static bool huge_decommit(extent_hooks_t *h, void *a, size_t n, size_t off, size_t len,
                          unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->decommit(b, a, n, off, len, arena);
}

static bool huge_purge_lazy(extent_hooks_t *h, void *a, size_t n, size_t off, size_t len,
                            unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->purge_lazy(b, a, n, off, len, arena);
}

static bool huge_purge_forced(extent_hooks_t *h, void *a, size_t n, size_t off, size_t len,
                              unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->purge_forced(b, a, n, off, len, arena);
}

static bool huge_split(extent_hooks_t *h, void *a, size_t n, size_t na, size_t nb,
                       bool committed, unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->split(b, a, n, na, nb, committed, arena);
}

static bool huge_merge(extent_hooks_t *h, void *a, size_t na, void *bb, size_t nb,
                       bool committed, unsigned arena)
{
    extent_hooks_t *b = base_of(h);
    return b->merge(b, a, na, bb, nb, committed, arena);
}

/* Sets arena i's hooks to *hooks; 0 or jemalloc's error (an arena not
 * created yet refuses: EFAULT). */
static int set_hooks(unsigned i, extent_hooks_t *hooks)
{
    char name[48];
    snprintf(name, sizeof name, "arena.%u.extent_hooks", i);
    return mallctl(name, NULL, NULL, &hooks, sizeof hooks);
}

huge_pages *huge_pages_begin(void)
{
    unsigned n;
    size_t len = sizeof n;
    extent_hooks_t *base;
    if (mallctl("arenas.narenas", &n, &len, NULL, 0) != 0)
        return NULL;
    len = sizeof base;
    if (mallctl("arena.0.extent_hooks", &base, &len, NULL, 0) != 0 || !base || !base->alloc)
        return NULL;
    huge_pages *hp = calloc(1, sizeof *hp);
    if (!hp)
        return NULL;
    hp->base = base;
    hp->hooks.alloc = huge_alloc; /* each hook jemalloc's has, wrapped; a NULL one stays NULL */
    hp->hooks.dalloc = base->dalloc ? huge_dalloc : NULL;
    hp->hooks.destroy = base->destroy ? huge_destroy : NULL;
    hp->hooks.commit = base->commit ? huge_commit : NULL;
    hp->hooks.decommit = base->decommit ? huge_decommit : NULL;
    hp->hooks.purge_lazy = base->purge_lazy ? huge_purge_lazy : NULL;
    hp->hooks.purge_forced = base->purge_forced ? huge_purge_forced : NULL;
    hp->hooks.split = base->split ? huge_split : NULL;
    hp->hooks.merge = base->merge ? huge_merge : NULL;
    hp->narenas = n < ARENAS_MAX ? n : ARENAS_MAX;
    for (unsigned i = 0; i < hp->narenas; i++)
        hp->wrapped[i] = set_hooks(i, &hp->hooks) == 0;
    return hp;
}

void huge_pages_end(huge_pages *hp)
{
    if (!hp)
        return;
    for (unsigned i = 0; i < hp->narenas; i++)
        if (hp->wrapped[i])
            (void)set_hooks(i, hp->base); /* the extents made meanwhile are jemalloc's as any */
    free(hp);
}
#else
huge_pages *huge_pages_begin(void)
{
    return NULL;
}

void huge_pages_end(huge_pages *hp)
{
    (void)hp;
}
#endif
