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
 * Paths: every path in a job is absolute, so a job runs from any
 * directory (the hosts must see them at the same paths: a shared file
 * system). DIR, --binary and a file an option names (--trace,
 * --split-keys-file, --ycsb FILE) are made absolute against the working
 * directory; a file the scenario names by a relative path (trace,
 * split_keys_file, [workload] ycsb), which the reader finds next to the
 * scenario file, against the file's directory. Both by joining text
 * (getcwd() "/" path), never by resolving links: a link in a path stays
 * as the user wrote it, for the kernel to follow when the job runs. In a
 * point's file, such a value gets the file's directory put before it
 * (each '$' in it as "$$", which the substitution turns back), at every
 * point whose substituted value is relative. Then every point's file is
 * read back as its job will read it, and the files its scenario names are
 * compared with those the sweep's own point names, made absolute: any
 * difference (a line the rewriting missed, a directory whose name would
 * read as an inline comment, a line grown too long) refuses the plan
 * before anything is written. A [sweep] variable that is itself such a
 * setting (`trace = a.csv, b.csv`) is applied as its option is, relative
 * to the working directory, and is refused when a value is relative: made
 * absolute it would no longer be the value merge matches the result by.
 *
 * The binary: unless --binary PATH names one, this very program is copied
 * into DIR/bin/regionsim (read through /proc/self/exe, which is the
 * running file even after it was replaced or deleted) and the jobs run the
 * copy: the binary that checked the points runs them, whatever happens to
 * the install meanwhile. The alternative, its path and a digest each job
 * checks, would make every job fail once the install is upgraded under a
 * waiting plan; a copy costs a megabyte and needs the same shared
 * libraries on every host, as the installed binary does.
 *
 * The directory is yours alone and everything in it is made relative to
 * its descriptor (planners/plan_dir.h: why). Everything is built in memory and
 * checked before DIR is opened; jobs.txt, plan.json and sweep.sbatch are
 * staged (complete or absent; jobs.txt gets its name last); a failure
 * while writing (a full disk) or an interrupt (SIGINT, SIGTERM, SIGHUP,
 * held while writing and polled between points: cli/interrupts.h) removes
 * what this run wrote and says the plan is incomplete.
 *
 * Slurm: more than SWEEP_PLAN_SLURM_MAX_ARRAY points are submitted as
 * several arrays over the same script (PLAN_OFFSET), so a task's log is
 * named by its array's job id and its index (logs/%A_%a.out), unique per
 * submission, and says first which point it ran.
 */
#define _XOPEN_SOURCE 700 /* open_memstream, getcwd */
#include "planners/sweep_plan.h"
#include "reports/report.h"
#include "cli/interrupts.h"
#include "planners/plan_dir.h"
#include "planners/sweep_run.h"
#include "workloads/ycsb_workload.h"

#include <ctype.h>
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

/* What a plan is made of, decided before anything is written. */
typedef struct job_plan {
    const sweep *sw;
    const sweep_plan_options *po;
    char cwd[PATH_MAX];     /* the working directory ("" until asked for) */
    char *dir;              /* DIR, absolute */
    char *binary;           /* what the jobs run, absolute */
    int copy_binary;        /* binary is DIR/bin/regionsim, this program's copy */
    char *file_dir;         /* the scenario file's directory, absolute, '$' as "$$"; NULL: unknown */
    char **args;            /* po->args (nargs), each file's path made absolute */
    const char **keys;      /* the settings among them (every pair but --assert) ... */
    const char **given;     /* ... their values as given ... */
    const char **values;    /* ... and as the jobs get them */
    size_t nset;
    int width;              /* digits of a point's number */
    char (*digests)[SWEEP_DIGEST_HEX]; /* each point's digest (sweep_point_digest): its file
                                          and the options its job runs with, pl->args */
} job_plan;

/* The working directory, or NULL with errno set. */
static const char *working_dir(job_plan *pl)
{
    if (!pl->cwd[0] && !getcwd(pl->cwd, sizeof pl->cwd)) {
        pl->cwd[0] = '\0';
        return NULL;
    }
    return pl->cwd;
}

/* base "/" path (base "/" alone: "/" path), malloc'd; NULL: out of memory. */
static char *join(const char *base, size_t blen, const char *path)
{
    if (blen == 1 && base[0] == '/')
        blen = 0;
    size_t plen = strlen(path);
    char *out = malloc(blen + 1 + plen + 1);
    if (!out)
        return NULL;
    memcpy(out, base, blen);
    out[blen] = '/';
    memcpy(out + blen + 1, path, plen + 1);
    return out;
}

/* path as an absolute path: itself when absolute, else the working
 * directory "/" path (text joined: nothing resolved). malloc'd; NULL with
 * the message in err. */
static char *absolute(job_plan *pl, const char *path, char *err, size_t errcap)
{
    char *out = NULL;
    if (path[0] == '/') {
        out = strdup(path);
    } else {
        const char *cwd = working_dir(pl);
        if (!cwd) {
            sweep_say(err, errcap, "%s: cannot name '%s' by an absolute path (the working "
                     "directory: %s)", pl->po->dir, path, strerror(errno));
            return NULL;
        }
        out = join(cwd, strlen(cwd), path);
    }
    if (!out)
        sweep_say(err, errcap, "out of memory");
    return out;
}

/* Whether setting key, set to value, names a file (one the reader opens). */
static int names_file(const char *key, const char *value)
{
    if (!value[0])
        return 0;
    return !strcmp(key, "trace") || !strcmp(key, "split_keys_file") ||
           (!strcmp(key, "ycsb") && !ycsb_builtin_exists(value));
}

/* A line of a scenario file as inih reads it: a [header] (name: key) or
 * `key = value` (or `key: value`; the value's blanks and inline comment,
 * a ';' after a blank, cut); offsets into the line. */
typedef struct ini_line {
    enum { INI_OTHER, INI_HEADER, INI_KEY } kind;
    size_t key, keylen, value, valuelen;
} ini_line;

static void parse_line(const char *s, size_t n, int first, ini_line *l)
{
    memset(l, 0, sizeof *l);
    if (n && s[n - 1] == '\r')
        n--;
    size_t i = first && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0; /* a BOM */
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    if (i == n || s[i] == ';' || s[i] == '#')
        return;
    if (s[i] == '[') {
        const char *close = memchr(s + i, ']', n - i);
        if (close) {
            l->kind = INI_HEADER;
            l->key = i + 1;
            l->keylen = (size_t)(close - s) - l->key;
        }
        return;
    }
    size_t d = i;
    int was_space = 0;
    while (d < n && s[d] != '=' && s[d] != ':' && !(was_space && s[d] == ';'))
        was_space = isspace((unsigned char)s[d++]);
    if (d == n || (s[d] != '=' && s[d] != ':'))
        return;
    size_t ke = d;
    while (ke > i && isspace((unsigned char)s[ke - 1]))
        ke--;
    size_t v = d + 1;
    while (v < n && isspace((unsigned char)s[v]))
        v++;
    size_t ve = v;
    was_space = 0;
    while (ve < n && !(was_space && s[ve] == ';'))
        was_space = isspace((unsigned char)s[ve++]);
    while (ve > v && isspace((unsigned char)s[ve - 1]))
        ve--;
    *l = (ini_line){ INI_KEY, i, ke - i, v, ve - v };
}

/* Whether key (keylen bytes) in [section] names a file the reader finds
 * relative to the scenario file (scenario/scenario_file.c: file_relative_path). */
static int file_key(const char *key, size_t keylen, const char *section)
{
    return (keylen == 5 && !memcmp(key, "trace", 5)) ||
           (keylen == 15 && !memcmp(key, "split_keys_file", 15)) ||
           (keylen == 4 && !memcmp(key, "ycsb", 4) && !strcmp(section, "workload"));
}

/* The next line of [*s, end): its length, *s moved past its '\n'. */
static size_t next_line(const char **s, const char *end, const char **line)
{
    *line = *s;
    if (*s >= end)
        return 0;
    const char *nl = memchr(*s, '\n', (size_t)(end - *s));
    size_t n = nl ? (size_t)(nl - *s) : (size_t)(end - *s);
    *s += n + (nl ? 1 : 0);
    return n;
}

/* Point p's file: the sweep's text ([sweep] lines blanked, line numbers
 * kept), with the file's directory before each file the scenario names by
 * a relative path at p; then a [sweep] holding the point's values. */
static int point_text(const job_plan *pl, size_t p, mem *m, char *err, size_t errcap)
{
    const sweep *sw = pl->sw;
    char *sub;
    size_t sublen;
    if (sweep_substitute(sw, p, &sub, &sublen, err, errcap) < 0)
        return -1;
    if (mem_open(m) < 0) {
        free(sub);
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    const char *s = sw->text, *end = sw->text + sw->len, *t = sub, *tend = sub + sublen;
    char section[256] = "";
    int unknown_dir = 0;
    for (int first = 1; s < end; first = 0) {
        const char *line, *tline;
        size_t n = next_line(&s, end, &line), tn = next_line(&t, tend, &tline);
        int ended = s > line + n; /* the line had its '\n' */
        ini_line l, tl;
        parse_line(line, n, first, &l);
        size_t at = n; /* where the file's directory goes: nowhere */
        if (l.kind == INI_HEADER) {
            snprintf(section, sizeof section, "%.*s", (int)l.keylen, line + l.key);
        } else if (l.kind == INI_KEY && file_key(line + l.key, l.keylen, section)) {
            parse_line(tline, tn, first, &tl);
            char value[256];
            snprintf(value, sizeof value, "%.*s", (int)tl.valuelen, tline + tl.value);
            if (tl.kind == INI_KEY && value[0] && value[0] != '/' &&
                (l.keylen != 4 || !ycsb_builtin_exists(value)))
                at = l.value;
        }
        fwrite(line, 1, at, m->f);
        if (at < n) {
            unknown_dir |= !pl->file_dir;
            fprintf(m->f, "%s/", pl->file_dir ? pl->file_dir : "");
            fwrite(line + at, 1, n - at, m->f);
        }
        if (ended)
            fputc('\n', m->f);
    }
    free(sub);
    if (sw->len && sw->text[sw->len - 1] != '\n')
        fputc('\n', m->f);
    fputs("\n[sweep]  ; regionsim sweep --plan: this point's values\n", m->f);
    for (size_t v = 0; v < sw->nvars; v++)
        fprintf(m->f, "%s = %s\n", sw->vars[v].name, sweep_value(sw, p, v));
    if (mem_close(m) < 0) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    if (unknown_dir) {
        sweep_say(err, errcap, "%s: %s names a file by a relative path, and the working "
                 "directory it is relative to is unknown: name it by an absolute path",
                 pl->po->dir, sw->shown_path);
        return -1;
    }
    return 0;
}

/* want (a path the sweep's point reads, "" or NULL for none) made
 * absolute is got (what the point's file read back gives). */
static int same_file(job_plan *pl, size_t p, const char *key, const char *want, const char *got,
                     char *err, size_t errcap)
{
    want = want ? want : "";
    got = got ? got : "";
    char *abs = names_file(key, want) ? absolute(pl, want, err, errcap) : strdup(want);
    if (!abs)
        return -1;
    int same = !strcmp(abs, got);
    if (!same) {
        char label[512];
        sweep_say(err, errcap, "%s: %s: at %s: %s: a planned job would read '%s', not '%s' (name "
                 "the file by an absolute path)", pl->po->dir, pl->sw->shown_path,
                 sweep_point_label(pl->sw, p, label, sizeof label), key, got, abs);
    }
    free(abs);
    return same ? 0 : -1;
}

/* Point p's file (m, at path) read back as its job will read it names the
 * files the sweep's point p names, made absolute. */
static int check_point(job_plan *pl, size_t p, const mem *m, const char *path, char *err,
                       size_t errcap)
{
    scenario want, got;
    sweep one;
    char msg[1280], label[512];
    sweep_point_label(pl->sw, p, label, sizeof label);
    if (sweep_point_scenario(pl->sw, p, pl->keys, pl->given, pl->nset, &want, msg,
                             sizeof msg) < 0) { /* the caller checked every point: not here */
        sweep_say(err, errcap, "%s: %s", pl->po->dir, msg);
        scenario_release(&want);
        return -1;
    }
    int rc = 0;
    if (sweep_load_text(&one, path, m->text, m->len, msg, sizeof msg) == 0) {
        rc = sweep_point_scenario(&one, 0, pl->keys, pl->values, pl->nset, &got, msg, sizeof msg);
        if (rc == 0 && want.nphases != got.nphases) {
            sweep_say(err, errcap, "%s: at %s: point %zu's file reads back with %zu phases, not "
                     "%zu", pl->po->dir, label, p, got.nphases, want.nphases);
            rc = -1;
        } else if (rc == 0) {
            rc = same_file(pl, p, "trace", want.workload.pattern.trace_path,
                           got.workload.pattern.trace_path, err, errcap);
            for (size_t i = 0; rc == 0 && i < want.nphases; i++)
                rc = same_file(pl, p, "trace", want.phases[i].pattern.trace_path,
                               got.phases[i].pattern.trace_path, err, errcap);
            if (rc == 0)
                rc = same_file(pl, p, "split_keys_file", want.split_keys_file,
                               got.split_keys_file, err, errcap);
            if (rc == 0)
                rc = same_file(pl, p, "ycsb", want.ycsb_source, got.ycsb_source, err, errcap);
        } else {
            sweep_say(err, errcap, "%s: at %s: point %zu's file does not read back as the point: "
                     "%s", pl->po->dir, label, p, msg);
        }
        scenario_release(&got);
        sweep_release(&one);
    } else {
        sweep_say(err, errcap, "%s: at %s: point %zu's file does not read back as the point: %s",
                 pl->po->dir, label, p, msg);
        rc = -1;
    }
    scenario_release(&want);
    return rc;
}

/* A [sweep] variable that sets a file's setting is applied as its option
 * is, relative to the working directory: a relative value is refused. */
static int check_file_variables(const job_plan *pl, char *err, size_t errcap)
{
    const sweep *sw = pl->sw;
    for (size_t v = 0; v < sw->nvars; v++)
        for (size_t k = 0; sw->vars[v].is_setting && k < sw->vars[v].nvalues; k++) {
            const char *value = sw->vars[v].values[k];
            if (names_file(sw->vars[v].name, value) && value[0] != '/') {
                sweep_say(err, errcap, "%s: %s:%d: [sweep] %s: '%s' is a relative path, which a "
                         "planned job would look for in the directory it starts in: name the "
                         "files by absolute paths, or sweep a variable of another name (f = %s, "
                         "...) and write %s = $f in the file, where a relative path is the "
                         "file's", pl->po->dir, sw->shown_path, sw->vars[v].line,
                         sw->vars[v].name, value, value, sw->vars[v].name);
                return -1;
            }
        }
    return 0;
}

/* The scenario file's directory, absolute, each '$' doubled (a point's
 * file substitutes it back), into pl->file_dir: "" for the root; left
 * NULL when the working directory is unknown. -1: out of memory. */
static int file_dir(job_plan *pl)
{
    const char *path = pl->sw->path, *slash = strrchr(path, '/');
    size_t len = slash ? (size_t)(slash - path) : 0;
    char *dir = NULL;
    if (path[0] == '/') {
        dir = strndup(path, len);
    } else if (working_dir(pl)) {
        char *rel = strndup(path, len);
        dir = !rel ? NULL : slash ? join(pl->cwd, strlen(pl->cwd), rel) : strdup(pl->cwd);
        free(rel);
        if (dir && !strcmp(dir, "/"))
            dir[0] = '\0';
    } else {
        return 0;
    }
    if (!dir)
        return -1;
    size_t n = 0;
    for (const char *c = dir; *c; c++)
        n += *c == '$';
    char *o = pl->file_dir = malloc(strlen(dir) + n + 1);
    for (const char *c = dir; o && *c; c++) {
        *o++ = *c;
        if (*c == '$')
            *o++ = '$';
    }
    if (o)
        *o = '\0';
    free(dir);
    return pl->file_dir ? 0 : -1;
}

/* The strings a job is made of: what each must not hold, and the paths
 * made absolute. */
static int plan_paths(job_plan *pl, char *err, size_t errcap)
{
    const sweep_plan_options *po = pl->po;
    const sweep *sw = pl->sw;
    size_t dlen = strlen(po->dir);
    while (dlen > 1 && po->dir[dlen - 1] == '/')
        dlen--;
    char *dir = strndup(po->dir, dlen);
    pl->dir = dir ? absolute(pl, dir, err, errcap) : NULL;
    free(dir);
    if (!pl->dir)
        return -1;
    /* jobs.txt is a job a line (parallel, sbatch's sed): no line breaks */
    if (strchr(pl->dir, '\n')) {
        sweep_say(err, errcap, "%s: a plan's directory name must not hold a line break", po->dir);
        return -1;
    }
    if (po->slurm && strchr(pl->dir, '\\')) {
        sweep_say(err, errcap, "%s: --slurm: a plan's directory name must not hold a backslash "
                 "(Slurm reads no %%a in a log's path that has one)", po->dir);
        return -1;
    }
    pl->copy_binary = !po->binary;
    pl->binary = po->binary ? absolute(pl, po->binary, err, errcap)
                            : join(pl->dir, strlen(pl->dir), "bin/regionsim");
    if (!pl->binary) {
        if (!po->binary)
            sweep_say(err, errcap, "out of memory");
        return -1;
    }
    if (strchr(pl->binary, '\n')) {
        sweep_say(err, errcap, "%s: --binary: the path must not hold a line break (jobs.txt is a "
                 "job a line)", po->dir);
        return -1;
    }
    pl->args = calloc(po->nargs + 1, sizeof *pl->args);
    pl->keys = calloc(po->nargs / 2 + 1, sizeof *pl->keys);
    pl->given = calloc(po->nargs / 2 + 1, sizeof *pl->given);
    pl->values = calloc(po->nargs / 2 + 1, sizeof *pl->values);
    pl->digests = calloc(sw->npoints, sizeof *pl->digests);
    if (!pl->args || !pl->keys || !pl->given || !pl->values || !pl->digests) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    for (size_t i = 0; i + 1 < po->nargs; i += 2) {
        const char *key = po->args[i], *value = po->args[i + 1];
        if (!(pl->args[i] = strdup(key))) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        if (names_file(key, value)) {
            if (!(pl->args[i + 1] = absolute(pl, value, err, errcap)))
                return -1;
        } else if (!(pl->args[i + 1] = strdup(value))) {
            sweep_say(err, errcap, "out of memory");
            return -1;
        }
        if (strchr(pl->args[i], '\n') || strchr(pl->args[i + 1], '\n')) {
            sweep_say(err, errcap, "%s: --%s: the value must not hold a line break (jobs.txt is a "
                     "job a line)", po->dir, key);
            return -1;
        }
        if (strcmp(key, "assert")) {
            pl->keys[pl->nset] = key;
            pl->given[pl->nset] = value;
            pl->values[pl->nset++] = pl->args[i + 1];
        }
    }
    if (file_dir(pl) < 0) {
        sweep_say(err, errcap, "out of memory");
        return -1;
    }
    for (size_t v = 0; v < sw->nvars; v++)
        for (size_t k = 0; k < sw->vars[v].nvalues; k++)
            if (strstr(sw->vars[v].values[k], "..")) {
                sweep_say(err, errcap, "%s: [sweep] %s: the value '%s' would read as a range in a "
                         "point's file", po->dir, sw->vars[v].name, sw->vars[v].values[k]);
                return -1;
            }
    pl->width = 4;
    for (size_t n = sw->npoints - 1; n >= 10000; n /= 10)
        pl->width++;
    return check_file_variables(pl, err, errcap);
}

static void plan_free(job_plan *pl)
{
    for (size_t i = 0; pl->args && i < pl->po->nargs; i++)
        free(pl->args[i]);
    free(pl->args);
    free(pl->keys);
    free(pl->given);
    free(pl->values);
    free(pl->dir);
    free(pl->binary);
    free(pl->file_dir);
    free(pl->digests);
}

/* pl->dir "/" sub "/" NNNN ext into out. */
static void point_path(const job_plan *pl, char *out, size_t cap, const char *sub, size_t p,
                       const char *ext)
{
    char num[32];
    point_number(num, p, pl->width);
    snprintf(out, cap, "%s/%s/%s%s", pl->dir, sub, num, ext);
}

/* Every point's file read back before anything is written. */
static int check_points_files(job_plan *pl, char *err, size_t errcap)
{
    char path[PATH_MAX + 64];
    for (size_t p = 0; p < pl->sw->npoints; p++) {
        mem pt;
        int rc = point_text(pl, p, &pt, err, errcap);
        point_path(pl, path, sizeof path, "points", p, ".ini");
        if (rc == 0)
            rc = check_point(pl, p, &pt, path, err, errcap);
        if (rc == 0) { /* the point's identity, which its job's result must carry */
            unsigned char sha[32];
            sweep_text_sha256(pt.text, pt.len, sha);
            sweep_point_digest(sha, (const char *const *)pl->args, pl->po->nargs,
                               pl->digests[p]);
        }
        free(pt.text);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* jobs.txt: line p+1 runs point p. */
static void jobs_text(const job_plan *pl, FILE *out)
{
    char path[PATH_MAX + 64];
    for (size_t p = 0; p < pl->sw->npoints; p++) {
        sh_quote(out, pl->binary);
        fputs(" sweep ", out);
        point_path(pl, path, sizeof path, "points", p, ".ini");
        sh_quote(out, path);
        for (size_t i = 0; i + 1 < pl->po->nargs; i += 2) {
            fputs(" --", out);
            sh_quote(out, pl->args[i]);
            fputc(' ', out);
            sh_quote(out, pl->args[i + 1]);
        }
        point_path(pl, path, sizeof path, "results", p, ".json");
        fputs(" --result ", out);
        sh_quote(out, path);
        fputc('\n', out);
    }
}

/* plan.json: the manifest merge reads. */
static void plan_json(const job_plan *pl, FILE *out)
{
    const sweep *sw = pl->sw;
    fprintf(out, "{\n  \"plan\": {\n    \"version\": %d,\n    \"file\": ", SWEEP_PLAN_VERSION);
    json_string(out, sw->path);
    fputs(",\n    \"scenario\": ", out);
    json_string(out, pl->po->scenario ? pl->po->scenario : "");
    fputs(",\n    \"binary\": ", out);
    json_string(out, pl->binary);
    fputs(",\n    \"variables\": [", out);
    for (size_t v = 0; v < sw->nvars; v++) {
        fprintf(out, "%s\n      {\"name\": ", v ? "," : "");
        json_string(out, sw->vars[v].name);
        fputs(", \"values\": [", out);
        for (size_t k = 0; k < sw->vars[v].nvalues; k++) {
            fputs(k ? ", " : "", out);
            json_string(out, sw->vars[v].values[k]);
        }
        fputs("]}", out);
    }
    fputs("\n    ],\n    \"points\": [", out);
    for (size_t p = 0; p < sw->npoints; p++) {
        char num[32];
        point_number(num, p, pl->width);
        fprintf(out, "%s\n      {\"index\": %zu, \"values\": {", p ? "," : "", p);
        for (size_t v = 0; v < sw->nvars; v++) {
            fputs(v ? ", " : "", out);
            json_string(out, sw->vars[v].name);
            fputs(": ", out);
            json_string(out, sweep_value(sw, p, v));
        }
        fprintf(out, "}, \"scenario\": \"points/%s.ini\", \"result\": \"results/%s.json\", "
                "\"digest\": \"%s\"}", num, num, pl->digests[p]);
    }
    fputs("\n    ]\n  }\n}\n", out);
}

/* sweep.sbatch: a job array over jobs.txt's lines. */
static void sbatch_text(const job_plan *pl, FILE *out)
{
    size_t n = pl->sw->npoints, chunk = SWEEP_PLAN_SLURM_MAX_ARRAY;
    size_t first = n < chunk ? n : chunk;
    fputs("#!/bin/sh\n", out);
    fputs("# regionsim sweep --plan --slurm: one array task per point (docs/distributed.md).\n", out);
    fprintf(out, "#SBATCH --job-name=regionsim-sweep\n#SBATCH --array=0-%zu\n", first - 1);
    fputs("#SBATCH --output=", out);
    sbatch_path(out, pl->dir);
    fputs("/logs/%A_%a.out\n", out); /* array job id and task: unique per submission */
    fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", out);
    if (n > chunk) {
        fprintf(out, "# %zu points, more than one array of %zu (Slurm's default MaxArraySize\n"
                     "# is 1001): this submission runs points 0-%zu; submit the rest as\n",
                n, chunk, chunk - 1);
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/sweep.sbatch", pl->dir);
        for (size_t at = chunk; at < n; at += chunk) {
            fprintf(out, "#   sbatch --export=ALL,PLAN_OFFSET=%zu --array=0-%zu ", at,
                    (n - at < chunk ? n - at : chunk) - 1);
            sh_quote(out, path);
            fputc('\n', out);
        }
    }
    fputs("set -eu\n", out);
    fputs("point=$((SLURM_ARRAY_TASK_ID + ${PLAN_OFFSET:-0}))\n", out);
    fputs("echo \"regionsim sweep plan: point $point (line $((point + 1)) of jobs.txt)\" >&2\n", out);
    fputs("job=$(sed -n \"$((point + 1))p\" ", out);
    sh_quote(out, pl->dir);
    fputs("/jobs.txt)\n", out);
    fputs("[ -n \"$job\" ] || { echo \"regionsim: no job for point $point\" >&2; exit 2; }\n", out);
    fputs("exec sh -c \"$job\"\n", out);
}

/* One of the texts rendered into memory; -1: out of memory. */
static int render(const job_plan *pl, void (*fn)(const job_plan *, FILE *), mem *m)
{
    if (mem_open(m) < 0)
        return -1;
    fn(pl, m->f);
    return mem_close(m);
}

/* Writes the plan into pd: the subdirectories, the binary, the points, then
 * the staged files, jobs.txt last, and commits. Returns 0, -1 (the cause
 * in err), or the number of a signal that came meanwhile. */
static int write_plan(job_plan *pl, plan_dir *pd, int exe, const mem *jobs, const mem *manifest,
                      const mem *sb, interrupts *ints, char *err, size_t errcap)
{
    static const char *const subdirs[] = { "points", "results", "logs", "bin" };
    for (size_t i = 0; i < 4; i++)
        if ((i < 3 || exe >= 0) && plan_dir_mkdir(pd, subdirs[i], err, errcap) < 0)
            return -1;
    if (exe >= 0 && plan_dir_copy(pd, "bin/regionsim", exe, "/proc/self/exe (this program)",
                                  0755, err, errcap) < 0)
        return -1;
    for (size_t p = 0; p < pl->sw->npoints; p++) {
        int signo = ints ? interrupts_pending(ints) : 0;
        if (signo)
            return signo;
        mem pt;
        char name[64], num[32];
        point_number(num, p, pl->width);
        snprintf(name, sizeof name, "points/%s.ini", num);
        int rc = point_text(pl, p, &pt, err, errcap);
        if (rc == 0)
            rc = plan_dir_write(pd, name, pt.text, pt.len, 0644, 0, err, errcap);
        free(pt.text);
        if (rc < 0)
            return -1;
    }
    if (pl->po->slurm && plan_dir_write(pd, "sweep.sbatch", sb->text, sb->len, 0755, 1, err,
                                        errcap) < 0)
        return -1;
    if (plan_dir_write(pd, "plan.json", manifest->text, manifest->len, 0644, 1, err, errcap) < 0 ||
        plan_dir_write(pd, "jobs.txt", jobs->text, jobs->len, 0644, 1, err, errcap) < 0)
        return -1;
    int signo = ints ? interrupts_pending(ints) : 0;
    if (signo)
        return signo;
    return plan_dir_commit(pd, err, errcap);
}

int sweep_plan_write(const sweep *sw, const sweep_plan_options *po, char *err, size_t errcap)
{
    return sweep_plan_write_held(sw, po, NULL, err, errcap);
}

int sweep_plan_write_held(const sweep *sw, const sweep_plan_options *po, struct interrupts *ints,
                          char *err, size_t errcap)
{
    job_plan pl;
    memset(&pl, 0, sizeof pl);
    pl.sw = sw;
    pl.po = po;
    mem jobs = { 0 }, manifest = { 0 }, sb = { 0 };
    int rc = plan_paths(&pl, err, errcap);
    if (rc == 0)
        rc = check_points_files(&pl, err, errcap);
    if (rc == 0 && (render(&pl, jobs_text, &jobs) < 0 || render(&pl, plan_json, &manifest) < 0 ||
                    (po->slurm && render(&pl, sbatch_text, &sb) < 0))) {
        sweep_say(err, errcap, "out of memory");
        rc = -1;
    }
    int exe = -1;
    if (rc == 0 && pl.copy_binary && (exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) < 0) {
        sweep_say(err, errcap, "%s: cannot copy this program into the plan (/proc/self/exe: %s); "
                 "give --binary PATH", po->dir, strerror(errno));
        rc = -1;
    }
    plan_dir *pd = NULL;
    if (ints)
        interrupts_hold(ints);
    if (rc == 0)
        rc = plan_dir_open(po->dir, &pd, err, errcap);
    if (rc == 0) {
        char cause[1024];
        rc = write_plan(&pl, pd, exe, &jobs, &manifest, &sb, ints, cause, sizeof cause);
        if (rc != 0) {
            int made = plan_dir_made(pd);
            char undo[1024];
            int undone = plan_dir_undo(pd, undo, sizeof undo);
            sweep_say(err, errcap, "%s: the plan is incomplete: %s; nothing of it was kept (%s)%s%s",
                     po->dir, rc > 0 ? "interrupted" : cause,
                     made ? "the directory, which this run made, is removed"
                          : "the directory is empty again",
                     undone < 0 ? "; but " : "", undone < 0 ? undo : "");
        } else {
            plan_dir_close(pd);
        }
    }
    if (ints && rc <= 0)
        interrupts_release(ints);
    if (exe >= 0)
        close(exe);
    free(jobs.text);
    free(manifest.text);
    free(sb.text);
    plan_free(&pl);
    return rc;
}
