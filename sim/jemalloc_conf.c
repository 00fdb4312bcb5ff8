/* jemalloc_conf.c -- how the program asks jemalloc to behave.
 *
 * jemalloc reads the string `malloc_conf` at start-up. dirty_decay_ms:0
 * returns freed pages to the kernel at once instead of keeping them for 10 s
 * (jemalloc's default). The row stores grow by realloc, so with the default
 * a 10-million-write run keeps every outgrown array's pages resident and its
 * peak RSS doubles (46 vs 26 bytes per row for the salted benchmark), at no
 * measurable gain in speed. retain:false unmaps what it frees instead of
 * keeping the address range for later: with the default, outgrown arrays
 * leave their ranges reserved, and a run of 110 million rows peaked at
 * 6.6 GB of address space for 2.9 GB resident, so under `ulimit -v` it ran
 * out of memory long before the memory budget (sim/budget.c) said it
 * would; unmapped, it peaks at 2.8 GB of address space, no slower. Linked
 * into the program and the benchmarks, not into a library: an archive
 * member nobody references would be dropped.
 */
#ifdef REGIONSIM_JEMALLOC
const char *malloc_conf = "dirty_decay_ms:0,retain:false";
#else
typedef int regionsim_no_jemalloc_conf;
#endif
