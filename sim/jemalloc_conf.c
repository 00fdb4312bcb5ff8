/* jemalloc_conf.c -- how the program asks jemalloc to behave.
 *
 * jemalloc reads the string `malloc_conf` at start-up. dirty_decay_ms:0
 * returns freed pages to the kernel at once instead of keeping them for
 * reuse (10 s by jemalloc's default); retain:false unmaps what it frees
 * instead of keeping the address range for later. Linked into the program
 * and the benchmarks, not into a library: an archive member nobody
 * references would be dropped.
 *
 * The price is kernel time. The row stores grow by realloc (x1.25 past
 * 1 MiB) and a split copies a store into two new ones, so most bytes a
 * run ever stores land on fresh pages: bench_writes (10 million writes a
 * scheme, monotonic and salted, each in its own process) takes about
 * 590,000 minor page faults for 2 x 250 MB of peak RSS, and spends 1.3 s
 * in the kernel to 1.8 s in user space (release build); `regionsim
 * compare`, 1.6 of 4.9 s.
 * The system calls themselves are few (7,000 mmap and munmap); it is the
 * faults. Measured alternatives (2-core VM, Linux, jemalloc 5.3.0, issue
 * 15), bench_writes' peak RSS per row (monotonic, salted) then compare's
 * peak RSS, against 25.0, 26.0 B and 94 MB as set here:
 *  - any dirty_decay_ms from 1 ms to 10 s (with retain:false): 0.4-0.5 s
 *    in the kernel, but 26-36 B a row, varying from run to run, and
 *    compare 122-142 MB (+30-50%). jemalloc looks at the clock only every
 *    thousand or so allocator calls (with background_thread:true, at most
 *    every 100 ms), and this program makes few, so even 1 ms keeps much
 *    of what is freed; the memory budget's estimates (sim/budget.c: 1.25
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
 *    never become muzzy.
 * So the memory stays as the budget counts it, and the kernel time with
 * it: removing it takes stores that grow without copying to fresh pages
 * (glibc's malloc grows large blocks in place with mremap: 0.5 s in the
 * kernel and 23-24 B a row in bench_writes, though compare then peaks at
 * 134 MB).
 */
#ifdef REGIONSIM_JEMALLOC
const char *malloc_conf = "dirty_decay_ms:0,retain:false";
#else
typedef int regionsim_no_jemalloc_conf;
#endif
