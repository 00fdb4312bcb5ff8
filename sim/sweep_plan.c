/* sweep_plan.c -- `regionsim sweep FILE --plan DIR`: a sweep written out
 * as one independent job per point, for engines that run many commands
 * on many cores or hosts (GNU parallel, a Slurm job array).
 *
 * Design: a job is the sweep itself, cut down to one point. Point p's
 * file (DIR/points/NNNN.ini) is the sweep's file with its [sweep] section
 * replaced by one value per variable, the point's: the same text, the same
 * substitution, the same settings in the same order (defaults, file,
 * options, variables), the same seed, so `regionsim sweep POINT.ini`
 * computes exactly the figures the whole sweep computes at that point.
 * (Only the scenario's name may differ: without a `name` it is the file's,
 * here the point's; plan.json keeps the sweep's for merge to print.)
 * Its command (a line of DIR/jobs.txt) adds the sweep's own options and
 * `--result DIR/results/NNNN.json`: the point's table as exact JSON
 * (sweep_write_json_exact), every number with 17 significant digits, so
 * `regionsim merge DIR` (sweep_merge.c) rebuilds the very table the sweep
 * fills and prints it with the same writers: the same bytes.
 *
 * Trade-offs: the jobs name the binary and DIR by absolute path, so every
 * host must see both at the same paths (a shared file system, or the same
 * install and a copied DIR whose results are brought back); a trace or
 * split keys file the scenario names by a relative path is found relative
 * to the point's file, so such a sweep is refused here (name it by an
 * absolute path). The plan is built in memory before anything is
 * written; a failure while writing (disk full) leaves what was written
 * and says so.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sim/sweep_plan.h"
#include "reports/report.h"
#include "sim/sweep_run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* s single-quoted for sh: every byte as it is, ' as '\''. */
static void sh_quote(FILE *out, const char *s)
{
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

/* s as a file name on an #SBATCH line: sbatch splits the line at blanks,
 * keeps the character after a backslash, groups quotes and ends the line at
 * an unescaped '#' (Slurm's src/sbatch/opt.c), so each of those is
 * escaped; Slurm's file name patterns read '%', so it is doubled. */
static void sbatch_path(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '%')
            fputc('%', out);
        else if (strchr(" \t\\\"'#", *s))
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* A JSON string (reports/json.c's writer; "" for NULL). */
static void json_string(FILE *out, const char *s)
{
    json_put_string(out, s ? s : "");
}

/* p in decimal, zero-padded to width digits (at most 20). */
static void point_number(char out[32], size_t p, int width)
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%zu", p);
    int pad = width > n && width <= 20 ? width - n : 0;
    memset(out, '0', (size_t)pad);
    memcpy(out + pad, digits, (size_t)n + 1);
}

/* DIR is new, or an empty directory; it is created here when new. */
static int prepare_dir(const char *dir, char *err, size_t errcap)
{
    struct stat st;
    if (lstat(dir, &st) < 0) {
        if (errno != ENOENT || mkdir(dir, 0777) < 0) {
            sweep_say(err, errcap, "%s: cannot create the directory: %s", dir, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        sweep_say(err, errcap, "%s: exists and is not a directory (a plan goes into a new or empty "
                 "directory)", dir);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        sweep_say(err, errcap, "%s: %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)))
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    if (!empty) {
        sweep_say(err, errcap, "%s: exists and is not empty (a plan goes into a new or empty "
                 "directory; remove the old plan first)", dir);
        return -1;
    }
    return 0;
}

/* Creates path (a new file: O_EXCL, so never through a link or over
 * anything) with len bytes of data. */
static int create_file(const char *path, const char *data, size_t len, int mode, char *err,
                       size_t errcap)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        sweep_say(err, errcap, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t at = 0;
    while (at < len) {
        ssize_t n = write(fd, data + at, len - at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            sweep_say(err, errcap, "%s: write failed: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        at += (size_t)n;
    }
    if (close(fd) < 0) {
        sweep_say(err, errcap, "%s: close failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A memstream's text, or NULL (out of memory). */
typedef struct mem {
    char *text;
    size_t len;
    FILE *f;
} mem;

static int mem_open(mem *m)
{
    m->text = NULL;
    m->len = 0;
    m->f = open_memstream(&m->text, &m->len);
    return m->f ? 0 : -1;
}

static int mem_close(mem *m)
{
    int rc = m->f && fclose(m->f) == 0 ? 0 : -1;
    m->f = NULL;
    return rc;
}

/* Point p's file: the text with [sweep] blanked (line numbers kept), then
 * a [sweep] holding the point's values. */
static int point_text(const sweep *sw, size_t p, mem *m, char *err, size_t errcap)
{
    if (mem_open(m) < 0) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    fwrite(sw->text, 1, sw->len, m->f);
    if (sw->len && sw->text[sw->len - 1] != '\n')
        fputc('\n', m->f);
    fputs("\n[sweep]  ; regionsim sweep --plan: this point's values\n", m->f);
    for (size_t v = 0; v < sw->nvars; v++)
        fprintf(m->f, "%s = %s\n", sw->vars[v].name, sweep_value(sw, p, v));
    if (mem_close(m) < 0) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    return 0;
}

/* Whether the file names a trace or split keys file by a relative path
 * (a key line `trace = x` or `split_keys_file = x` whose value is no absolute
 * path): the point's file would look for it in DIR/points. */
static const char *relative_file_key(const sweep *sw, int *line)
{
    static const char *const keys[] = { "trace", "split_keys_file" };
    const char *s = sw->text, *end = sw->text + sw->len;
    *line = 1;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        const char *k = s;
        while (k < e && (*k == ' ' || *k == '\t'))
            k++;
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
            size_t n = strlen(keys[i]);
            if ((size_t)(e - k) > n && !strncmp(k, keys[i], n)) {
                const char *q = k + n;
                while (q < e && (*q == ' ' || *q == '\t'))
                    q++;
                if (q < e && *q == '=') {
                    q++;
                    while (q < e && (*q == ' ' || *q == '\t'))
                        q++;
                    if (q < e && *q != '/')
                        return keys[i];
                }
            }
        }
        s = e + 1;
        ++*line;
    }
    return NULL;
}

int sweep_plan_write(const sweep *sw, const sweep_plan_options *po, char *err, size_t errcap)
{
    int line;
    const char *key = relative_file_key(sw, &line);
    if (key) {
        sweep_say(err, errcap, "%s: %s:%d: %s names a file by a relative path; a planned point's "
                 "file is in DIR/points: name it by an absolute path", po->dir, sw->shown_path,
                 line, key);
        return -1;
    }
    for (size_t v = 0; v < sw->nvars; v++)
        for (size_t k = 0; k < sw->vars[v].nvalues; k++)
            if (strstr(sw->vars[v].values[k], "..")) {
                sweep_say(err, errcap, "%s: [sweep] %s: the value '%s' would read as a range in a "
                         "point's file", po->dir, sw->vars[v].name, sw->vars[v].values[k]);
                return -1;
            }
    /* jobs.txt is a job a line (parallel, sbatch's sed): no line breaks */
    if (strchr(po->dir, '\n')) {
        sweep_say(err, errcap, "%s: a plan's directory name must not hold a line break", po->dir);
        return -1;
    }
    if (po->binary && strchr(po->binary, '\n')) {
        sweep_say(err, errcap, "%s: --binary: the path must not hold a line break (jobs.txt is a "
                 "job a line)", po->dir);
        return -1;
    }
    for (size_t i = 0; i + 1 < po->nargs; i += 2)
        if (strchr(po->args[i], '\n') || strchr(po->args[i + 1], '\n')) {
            sweep_say(err, errcap, "%s: --%s: the value must not hold a line break (jobs.txt is a "
                     "job a line)", po->dir, po->args[i]);
            return -1;
        }
    if (po->slurm && strchr(po->dir, '\\')) {
        sweep_say(err, errcap, "%s: --slurm: a plan's directory name must not hold a backslash "
                 "(Slurm reads no %%a in a log's path that has one)", po->dir);
        return -1;
    }
    char binary[PATH_MAX];
    if (po->binary) {
        snprintf(binary, sizeof binary, "%s", po->binary);
    } else {
        ssize_t n = readlink("/proc/self/exe", binary, sizeof binary - 1);
        if (n <= 0) {
            sweep_say(err, errcap, "%s: cannot find this program's path (/proc/self/exe: %s); give "
                     "--binary PATH", po->dir, strerror(errno));
            return -1;
        }
        binary[n] = '\0';
    }
    if (prepare_dir(po->dir, err, errcap) < 0)
        return -1;
    char dir[PATH_MAX];
    if (!realpath(po->dir, dir)) {
        sweep_say(err, errcap, "%s: %s", po->dir, strerror(errno));
        return -1;
    }
    if (strchr(dir, '\n')) {
        sweep_say(err, errcap, "%s: a plan's directory name must not hold a line break", po->dir);
        return -1;
    }
    char path[PATH_MAX + 64];
    static const char *const subdirs[] = { "points", "results", "logs" };
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, subdirs[i]);
        if (mkdir(path, 0777) < 0) {
            sweep_say(err, errcap, "%s: %s", path, strerror(errno));
            return -1;
        }
    }
    int width = 4;
    for (size_t n = sw->npoints - 1; n >= 10000; n /= 10)
        width++;

    /* points/NNNN.ini, and the lines of jobs.txt and plan.json */
    mem jobs, plan;
    if (mem_open(&jobs) < 0 || mem_open(&plan) < 0) {
        mem_close(&jobs);
        free(jobs.text);
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    fprintf(plan.f, "{\n  \"plan\": {\n    \"version\": %d,\n    \"file\": ", SWEEP_PLAN_VERSION);
    json_string(plan.f, sw->path);
    fputs(",\n    \"scenario\": ", plan.f);
    json_string(plan.f, po->scenario ? po->scenario : "");
    fputs(",\n    \"binary\": ", plan.f);
    json_string(plan.f, binary);
    fputs(",\n    \"variables\": [", plan.f);
    for (size_t v = 0; v < sw->nvars; v++) {
        fprintf(plan.f, "%s\n      {\"name\": ", v ? "," : "");
        json_string(plan.f, sw->vars[v].name);
        fputs(", \"values\": [", plan.f);
        for (size_t k = 0; k < sw->vars[v].nvalues; k++) {
            fputs(k ? ", " : "", plan.f);
            json_string(plan.f, sw->vars[v].values[k]);
        }
        fputs("]}", plan.f);
    }
    fputs("\n    ],\n    \"points\": [", plan.f);
    int rc = 0;
    for (size_t p = 0; rc == 0 && p < sw->npoints; p++) {
        mem pt;
        if (point_text(sw, p, &pt, err, errcap) < 0) {
            free(pt.text);
            rc = -1;
            break;
        }
        char num[32];
        point_number(num, p, width);
        snprintf(path, sizeof path, "%s/points/%s.ini", dir, num);
        rc = create_file(path, pt.text, pt.len, 0644, err, errcap);
        unsigned char sha[32]; /* the point's identity, which its job's result must carry */
        char digest[SWEEP_DIGEST_HEX];
        sweep_text_sha256(pt.text, pt.len, sha);
        sweep_point_digest(sha, po->args, po->nargs, digest);
        free(pt.text);
        sh_quote(jobs.f, binary);
        fputs(" sweep ", jobs.f);
        sh_quote(jobs.f, path);
        for (size_t i = 0; i + 1 < po->nargs; i += 2) {
            fputs(" --", jobs.f);
            sh_quote(jobs.f, po->args[i]);
            fputc(' ', jobs.f);
            sh_quote(jobs.f, po->args[i + 1]);
        }
        snprintf(path, sizeof path, "%s/results/%s.json", dir, num);
        fputs(" --result ", jobs.f);
        sh_quote(jobs.f, path);
        fputc('\n', jobs.f);
        fprintf(plan.f, "%s\n      {\"index\": %zu, \"values\": {", p ? "," : "", p);
        for (size_t v = 0; v < sw->nvars; v++) {
            fputs(v ? ", " : "", plan.f);
            json_string(plan.f, sw->vars[v].name);
            fputs(": ", plan.f);
            json_string(plan.f, sweep_value(sw, p, v));
        }
        fprintf(plan.f, "}, \"scenario\": \"points/%s.ini\", \"result\": \"results/%s.json\", "
                "\"digest\": \"%s\"}", num, num, digest);
    }
    fputs("\n    ]\n  }\n}\n", plan.f);
    int oom = mem_close(&jobs) < 0;
    oom |= mem_close(&plan) < 0;
    if (rc == 0 && oom) {
        sweep_say(err, errcap, "out of memory");
        rc = -1;
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/jobs.txt", dir);
        rc = create_file(path, jobs.text, jobs.len, 0644, err, errcap);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/plan.json", dir);
        rc = create_file(path, plan.text, plan.len, 0644, err, errcap);
    }
    free(jobs.text);
    free(plan.text);

    if (rc == 0 && po->slurm) { /* a job array over jobs.txt's lines */
        mem sb;
        if (mem_open(&sb) < 0) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        size_t n = sw->npoints, chunk = SWEEP_PLAN_SLURM_MAX_ARRAY;
        size_t first = n < chunk ? n : chunk;
        fputs("#!/bin/sh\n", sb.f);
        fputs("# regionsim sweep --plan --slurm: one array task per point (docs/distributed.md).\n", sb.f);
        fprintf(sb.f, "#SBATCH --job-name=regionsim-sweep\n#SBATCH --array=0-%zu\n", first - 1);
        fputs("#SBATCH --output=", sb.f);
        sbatch_path(sb.f, dir);
        fputs("/logs/%a.out\n", sb.f);
        fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", sb.f);
        if (n > chunk) {
            fprintf(sb.f, "# %zu points, more than one array of %zu (Slurm's default MaxArraySize\n"
                          "# is 1001): this submission runs points 0-%zu; submit the rest as\n",
                    n, chunk, chunk - 1);
            for (size_t at = chunk; at < n; at += chunk) {
                fprintf(sb.f, "#   sbatch --export=ALL,PLAN_OFFSET=%zu --array=0-%zu ", at,
                        (n - at < chunk ? n - at : chunk) - 1);
                snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
                sh_quote(sb.f, path);
                fputc('\n', sb.f);
            }
        }
        fputs("set -eu\n", sb.f);
        fputs("point=$((SLURM_ARRAY_TASK_ID + ${PLAN_OFFSET:-0}))\n", sb.f);
        fputs("job=$(sed -n \"$((point + 1))p\" ", sb.f);
        sh_quote(sb.f, dir);
        fputs("/jobs.txt)\n", sb.f);
        fputs("[ -n \"$job\" ] || { echo \"regionsim: no job for point $point\" >&2; exit 2; }\n", sb.f);
        fputs("exec sh -c \"$job\"\n", sb.f);
        if (mem_close(&sb) < 0) {
            free(sb.text);
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        snprintf(path, sizeof path, "%s/sweep.sbatch", dir);
        rc = create_file(path, sb.text, sb.len, 0755, err, errcap);
        free(sb.text);
    }
    return rc;
}
