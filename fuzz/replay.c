/* replay.c -- runs a fuzz target's LLVMFuzzerTestOneInput over a corpus,
 * without libFuzzer: the main of every fuzz_<target> in a normal build.
 *
 *     fuzz_keyscheme DIR|FILE ...
 *
 * Runs the function once over every regular file in each directory (in
 * name order, so runs are reproducible) and over each file named, naming
 * each input on stderr before it runs: an oracle that fails aborts, so the
 * test fails and its log ends with the input that failed. Exits 1 if no
 * input was found: an empty corpus tests nothing.
 */
#include "fuzz/fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: cannot read\n", path);
        free(buf);
        return -1;
    }
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
    /* A copy of exactly n bytes, so ASan sees a read past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact)
        abort();
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of dir; returns how many, or -1. */
static long run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **p = realloc(names, cap * sizeof *p);
            if (!p)
                abort();
            names = p;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            abort();
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    long ran = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]) < 0)
                ran = -1;
            else if (ran >= 0)
                ran++;
        }
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        long ran = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
        if (ran < 0)
            return 1;
        total += ran;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no inputs (usage: %s DIR|FILE ...)\n", argv[0]);
        return 1;
    }
    printf("%s: %ld inputs, every oracle held\n", argv[0], total);
    return 0;
}
