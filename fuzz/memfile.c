/* memfile.c -- inputs as files, for parsers that take a path.
 *
 * A memfd (Linux): no disk, nothing to clean up but the descriptor, and no
 * name another process could collide with. Where memfd_create is missing
 * (an old kernel), an unlinked mkstemp file in /tmp does the same job.
 */
#define _GNU_SOURCE
#include "fuzz/fuzz.h"

#include <sys/mman.h>

int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t cap)
{
    int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
    if (fd < 0) {
        char tmpl[] = "/tmp/regionsim-fuzz-XXXXXX";
        fd = mkstemp(tmpl);
        if (fd < 0) {
            perror("fuzz_memfile");
            abort();
        }
        unlink(tmpl);
    }
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            perror("fuzz_memfile: write");
            abort();
        }
        done += (size_t)w;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}
