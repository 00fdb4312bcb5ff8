/* watchview.c -- a frame of `regionsim watch`, from a finished run.
 *
 * Design: `watch` runs the simulation to its end first and then replays
 * its result (cli/watch.c says why), so everything shown at time t is
 * derived here from the run_result alone:
 *  - bars: run->window_writes of the window the clock is in, scaled to the
 *    run's largest window count (one scale for the whole replay, so a bar
 *    that grows means more writes, not a new scale);
 *  - regions per server: the run keeps only each server's regions at the
 *    end and a timeline of what changed them, so the counts at t are
 *    rebuilt backwards: start from the end and undo every later event (a
 *    split gave its server one region; a move or reassignment took one
 *    from `from` to `to`). O(events) a frame: a few thousand at most for
 *    a run anyone watches, ten frames a second.
 *  - the figures so far: stats_imbalance of the servers' writes summed
 *    over the measured windows up to the current one, and stats_windows'
 *    mean of per-window max/mean over them, the same functions the text
 *    report uses, so the last frame shows the report's max/mean and
 *    window figures (when measuring starts at a window's start); before
 *    the first measured window the line says "warm-up" (or "not measured
 *    yet" for an explicit measure_from) and from when figures count.
 * Lines are built in a fixed buffer that counts columns (a UTF-8 sequence
 * is one column, an escape none) and stops at the screen's width, so a
 * narrow terminal cuts lines instead of wrapping them and scrolling the
 * frame. Colour is a parameter: with it off not one escape byte is
 * written, and the hot server is still marked "<- hot".
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/stats.h"
#include "reports/watchview.h"

#define WIDTH_MAX 1000
#define LINE_BYTES (WIDTH_MAX * 4 + 256) /* every column a 4-byte character, and escapes */

/* ANSI SGR sequences for the hot server (colour on only). */
#define SGR_RESET "\x1b[0m"
#define SGR_HOT_NAME "\x1b[7m"    /* reverse video */
#define SGR_HOT_BAR "\x1b[1;31m"  /* bold red */
#define SGR_DIM "\x1b[2m"

uint32_t watchview_window_at(const run_result *run, uint64_t t_us)
{
    uint64_t w = t_us == 0 || run->window_us == 0 ? 0 : (t_us - 1) / run->window_us;
    return w >= run->nwindows ? run->nwindows - 1 : (uint32_t)w;
}

/* The counts of window w, or NULL when the run kept none server by server. */
static const uint64_t *window_row(const run_result *run, uint32_t w)
{
    return run->window_writes ? run->window_writes + (size_t)w * run->nservers : NULL;
}

int watchview_state(const run_result *run, uint64_t t_us, watch_state *st)
{
    uint32_t n = run->nservers;
    st->t_us = t_us;
    st->window = watchview_window_at(run, t_us);
    st->splits = st->moves = st->balancer_runs = 0;
    st->events = 0;
    while (st->events < run->nevents && run->events[st->events].t_us <= t_us)
        st->events++;
    /* regions: the end's counts, every event after t undone (signed: a
     * timeline that does not add up must not wrap around) */
    int64_t *regions = malloc((n ? n : 1) * sizeof *regions);
    if (!regions)
        return -1;
    for (uint32_t s = 0; s < n; s++) {
        regions[s] = (int64_t)run->servers[s].regions;
        st->present[s] = 1;
    }
    for (size_t i = run->nevents; i-- > st->events;) {
        const timeline_event *e = &run->events[i];
        switch (e->kind) {
        case TIMELINE_SPLIT:
            if (e->from < n) regions[e->from]--;
            break;
        case TIMELINE_MOVE:
        case TIMELINE_REASSIGN:
            if (e->meta) /* regions counts the table's; meta is apart */
                break;
            if (e->from < n) regions[e->from]++;
            if (e->to < n) regions[e->to]--;
            break;
        default:
            break;
        }
    }
    /* presence: servers that join later are absent until they do, those
     * that leave are absent after */
    for (size_t i = 0; i < run->nevents; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind == TIMELINE_SERVERS_ADDED)
            for (uint32_t s = e->from; s <= e->to && s < n; s++)
                st->present[s] = 0;
    }
    for (size_t i = 0; i < st->events; i++) {
        const timeline_event *e = &run->events[i];
        if (e->kind == TIMELINE_SERVERS_ADDED)
            for (uint32_t s = e->from; s <= e->to && s < n; s++)
                st->present[s] = 1;
        else if ((e->kind == TIMELINE_DECOMMISSION || e->kind == TIMELINE_FAILURE) && e->from < n)
            st->present[e->from] = 0;
        st->splits += e->kind == TIMELINE_SPLIT;
        st->moves += e->kind == TIMELINE_MOVE;
        st->balancer_runs += e->kind == TIMELINE_BALANCER;
    }
    st->regions_total = 0;
    for (uint32_t s = 0; s < n; s++) {
        st->regions[s] = regions[s] > 0 ? (uint64_t)regions[s] : 0;
        st->regions_total += st->regions[s];
    }
    free(regions);

    /* the window's hot server */
    st->hot_defined = 0;
    st->hot = 0;
    st->hot_share = NAN;
    const uint64_t *row = window_row(run, st->window);
    if (row) {
        uint64_t total = 0;
        for (uint32_t s = 0; s < n; s++) {
            total += row[s];
            if (row[s] > row[st->hot])
                st->hot = s;
        }
        if (total > 0) {
            st->hot_defined = 1;
            st->hot_share = (double)row[st->hot] / (double)total;
        }
    }

    /* the figures so far, over the measured windows up to this one */
    st->max_mean = st->window_max_mean = NAN;
    uint32_t first = stats_first_measured_window(run);
    if (run->window_writes && first <= st->window && n > 0) {
        uint64_t *sum = calloc(n, sizeof *sum);
        if (!sum)
            return -1;
        for (uint32_t w = first; w <= st->window; w++) {
            const uint64_t *r = window_row(run, w);
            for (uint32_t s = 0; s < n; s++)
                sum[s] += r[s];
        }
        imbalance im = stats_imbalance(sum, n);
        free(sum);
        if (im.defined)
            st->max_mean = im.max_mean;
        window_stats ws = stats_windows(window_row(run, first), st->window - first + 1, n);
        st->window_max_mean = ws.mean_max_mean;
    }
    return 0;
}

const char *watchview_clock(char *buf, size_t cap, uint64_t t_us)
{
    uint64_t s = t_us / 1000000;
    if (s >= 86400) /* a month reads as days, not as 720 hours */
        snprintf(buf, cap, "%" PRIu64 "d %02" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 86400,
                 s / 3600 % 24, s / 60 % 60, s % 60);
    else
        snprintf(buf, cap, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64, s / 3600, s / 60 % 60, s % 60);
    return buf;
}

const char *watchview_speed(char *buf, size_t cap, double speed)
{
    if (speed >= 3600)
        snprintf(buf, cap, "%.3g h a second", speed / 3600);
    else if (speed >= 60)
        snprintf(buf, cap, "%.3g min a second", speed / 60);
    else if (speed >= 1)
        snprintf(buf, cap, "%.3g s a second", speed);
    else
        snprintf(buf, cap, "%.3g ms a second", speed * 1000);
    return buf;
}

/* One line of the frame, cut at `max` columns. */
typedef struct line {
    char buf[LINE_BYTES];
    size_t len;
    int cols, max;
    int color;
} line;

static void line_start(line *l, int max, int color)
{
    l->len = 0;
    l->cols = 0;
    l->max = max;
    l->color = color;
    l->buf[0] = '\0';
}

/* Appends visible text (UTF-8; each sequence one column) while it fits.
 * A control byte (a scheme or scenario name can hold anything) or a byte
 * that is not UTF-8 is written as '?': text never moves the cursor. */
static void put(line *l, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p && l->cols < l->max) {
        size_t n = utf8_sequence_len(p);
        if (l->len + (n ? n : 1) >= sizeof l->buf)
            break;
        if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
            l->buf[l->len++] = '?';
            l->cols++;
            p++;
            continue;
        }
        memcpy(l->buf + l->len, p, n);
        l->len += n;
        l->cols++;
        p += n;
    }
    l->buf[l->len] = '\0';
}

static void putf(line *l, const char *fmt, ...)
{
    char text[LINE_BYTES];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    put(l, text);
}

/* An escape sequence: written only with colour on, and always whole. */
static void esc(line *l, const char *seq)
{
    size_t n = strlen(seq);
    if (!l->color || l->len + n >= sizeof l->buf)
        return;
    memcpy(l->buf + l->len, seq, n);
    l->len += n;
    l->buf[l->len] = '\0';
}

/* Spaces up to column `col`. */
static void pad_to(line *l, int col)
{
    while (l->cols < col && l->cols < l->max)
        put(l, " ");
}

static void emit(FILE *out, line *l, int *lines)
{
    fwrite(l->buf, 1, l->len, out);
    fputc('\n', out);
    (*lines)++;
}

/* A bar of `eighths` eighths of a column, padded with spaces to `width`. */
static void put_bar(line *l, uint64_t eighths, int width)
{
    static const char *const part[8] = { "", "\u258f", "\u258e", "\u258d", "\u258c",
                                         "\u258b", "\u258a", "\u2589" };
    int start = l->cols;
    for (uint64_t i = 0; i < eighths / 8; i++)
        put(l, "\u2588");
    put(l, part[eighths % 8]);
    pad_to(l, start + width);
}

/* Eighths of a column for count on a bar `width` columns long scaled to
 * `scale`: rounded, at least one for a count above 0, at most the width. */
static uint64_t bar_eighths(uint64_t count, uint64_t scale, int width)
{
    if (count == 0 || scale == 0)
        return 0;
    double e = floor((double)count / (double)scale * width * 8 + 0.5);
    if (e < 1)
        e = 1;
    if (e > width * 8.0)
        e = width * 8.0;
    return (uint64_t)e;
}

/* One event of the log, newest first. */
static void put_event(line *l, const run_result *run, const timeline_event *e)
{
    char clock[24], key[CELL], what[320];
    const char *k = e->key ? fmt_cut(key, e->key[0] ? e->key : "(first region)", 40) : "";
    watchview_clock(clock, sizeof clock, e->t_us);
    uint32_t n = run->nservers;
    const char *from = e->from < n ? run->servers[e->from].name : "?";
    const char *to = e->to < n ? run->servers[e->to].name : "?";
    switch (e->kind) {
    case TIMELINE_SPLIT:
        putf(l, "  %s  split     on %s at %s", clock, from, k);
        break;
    case TIMELINE_MOVE:
        putf(l, "  %s  move      %s -> %s  region %s", clock, from, to, k);
        break;
    case TIMELINE_REASSIGN:
        putf(l, "  %s  reassign  %s -> %s  region %s", clock, from, to, k);
        break;
    case TIMELINE_BALANCER:
        if (e->balancer < run->balancer_runs)
            fmt_balancer_run(what, sizeof what, &run->balancer_log[e->balancer]);
        else
            snprintf(what, sizeof what, "ran");
        putf(l, "  %s  balancer  %s", clock, what);
        break;
    case TIMELINE_SERVERS_ADDED:
        putf(l, "  %s  joined    %s..%s", clock, from, to);
        break;
    case TIMELINE_DECOMMISSION:
        putf(l, "  %s  left      %s (decommissioned)", clock, from);
        break;
    case TIMELINE_FAILURE:
        putf(l, "  %s  failed    %s", clock, from);
        break;
    default:
        break;
    }
}

/* The servers to draw when not all fit in `rows` lines: the rows - 1
 * with the most writes in the window (ties: the lower id), in id order;
 * the last line says how many are left out. Returns how many are shown. */
static uint32_t pick_servers(const run_result *run, const uint64_t *row, uint32_t rows,
                             uint32_t *shown)
{
    uint32_t n = run->nservers;
    if (n <= rows) {
        for (uint32_t s = 0; s < n; s++)
            shown[s] = s;
        return n;
    }
    uint32_t k = rows > 1 ? rows - 1 : 1;
    uint32_t count = 0;
    for (uint32_t s = 0; s < n; s++) { /* insertion into the top k, busiest first */
        uint64_t c = row ? row[s] : 0;
        uint32_t at = count;
        while (at > 0 && (row ? row[shown[at - 1]] : 0) < c)
            at--;
        if (at >= k)
            continue;
        if (count < k)
            count++;
        memmove(shown + at + 1, shown + at, (count - 1 - at) * sizeof *shown);
        shown[at] = s;
    }
    for (uint32_t i = 1; i < count; i++) { /* back into id order */
        uint32_t v = shown[i], j = i;
        while (j > 0 && shown[j - 1] > v) {
            shown[j] = shown[j - 1];
            j--;
        }
        shown[j] = v;
    }
    return count;
}

int watchview_frame(FILE *out, const watchview *v)
{
    const run_result *run = v->run;
    uint32_t n = run->nservers;
    int width = v->width < 20 ? 20 : v->width > WIDTH_MAX ? WIDTH_MAX : v->width;
    int height = v->height < 12 ? 12 : v->height;
    watch_state st;
    st.regions = malloc((n ? n : 1) * sizeof *st.regions);
    st.present = malloc(n ? n : 1);
    uint32_t *shown = malloc((n ? n : 1) * sizeof *shown);
    line *l = malloc(sizeof *l);
    if (!st.regions || !st.present || !shown || !l || watchview_state(run, v->t_us, &st) < 0) {
        free(st.regions), free(st.present), free(shown), free(l);
        return -1;
    }
    int lines = 0;
    char a[CELL], b[CELL], c[CELL];

    /* title and clock */
    line_start(l, width, v->color);
    putf(l, "regionsim watch  %s  (%s)  scenario %s, seed %" PRIu64, run->scheme_name,
         run->scheme_expr, v->scenario ? v->scenario : "-", v->seed);
    emit(out, l, &lines);
    line_start(l, width, v->color);
    char speed[48];
    putf(l, "time %s / %s   speed %s", watchview_clock(a, sizeof a, v->t_us),
         watchview_clock(b, sizeof b, run->duration_us), watchview_speed(speed, sizeof speed, v->speed));
    if (v->finished || v->paused) {
        put(l, "   ");
        esc(l, SGR_HOT_NAME);
        put(l, v->finished ? "[end of run]" : "[paused]");
        esc(l, SGR_RESET);
    }
    emit(out, l, &lines);

    /* the servers */
    const uint64_t *row = window_row(run, st.window);
    uint64_t scale = run->window_writes
                         ? stats_matrix_max(run->window_writes, (size_t)run->nwindows * n) : 0;
    int name_w = 3;
    for (uint32_t s = 0; s < n; s++) {
        int len = (int)strlen(run->servers[s].name);
        if (len > name_w)
            name_w = len;
    }
    /* name |bar| writes regions <- hot */
    int bar_w = width - (name_w + 2 + 1 + 10 + 8 + 7);
    if (bar_w < 4)
        bar_w = 4;
    uint64_t wstart = (uint64_t)st.window * run->window_us;
    uint64_t wend = wstart + run->window_us < run->duration_us ? wstart + run->window_us
                                                               : run->duration_us;
    line_start(l, width, v->color);
    putf(l, "writes per server in the window %s-%s", watchview_clock(a, sizeof a, wstart),
         watchview_clock(b, sizeof b, wend));
    pad_to(l, name_w + 2 + bar_w + 1);
    put(l, "    writes regions");
    emit(out, l, &lines);

    int fixed = 3 /* title, clock, header */ + 3 /* blank, two figure lines */ +
                3 /* "latest", at least two events */ + (v->keys ? 1 : 0);
    uint32_t rows = height - fixed > 1 ? (uint32_t)(height - fixed) : 1;
    uint32_t nshown = pick_servers(run, row, rows, shown);
    for (uint32_t i = 0; i < nshown; i++) {
        uint32_t s = shown[i];
        int hot = st.hot_defined && s == st.hot;
        line_start(l, width, v->color);
        if (hot) esc(l, SGR_HOT_NAME);
        put(l, run->servers[s].name);
        if (hot) esc(l, SGR_RESET);
        pad_to(l, name_w + 1);
        if (!st.present[s]) {
            esc(l, SGR_DIM);
            put(l, "(not in the cluster)");
            esc(l, SGR_RESET);
            emit(out, l, &lines);
            continue;
        }
        uint64_t count = row ? row[s] : 0;
        put(l, "|");
        if (hot) esc(l, SGR_HOT_BAR);
        put_bar(l, bar_eighths(count, scale, bar_w), bar_w);
        if (hot) esc(l, SGR_RESET);
        putf(l, "| %9" PRIu64 " %7" PRIu64, count, st.regions[s]);
        if (hot) {
            esc(l, SGR_HOT_BAR);
            put(l, " <- hot");
            esc(l, SGR_RESET);
        }
        emit(out, l, &lines);
    }
    if (nshown < n) {
        line_start(l, width, v->color);
        putf(l, "(%" PRIu32 " servers not shown; those shown are the window's busiest)", n - nshown);
        emit(out, l, &lines);
    }

    /* the figures so far */
    line_start(l, width, v->color);
    emit(out, l, &lines);
    line_start(l, width, v->color);
    if (st.window < stats_first_measured_window(run)) /* before the measured span */
        putf(l, "so far: %s, figures from %s   hot %s: %s of the window",
             run->measure_from_us == run->warmup_us ? "warm-up" : "not measured yet",
             fmt_duration(a, run->measure_from_us),
             st.hot_defined ? run->servers[st.hot].name : "-",
             st.hot_defined ? fmt_percent(c, st.hot_share) : "-");
    else
        putf(l, "so far: max/mean %s  window max/mean %s   hot %s: %s of the window",
             fmt_fixed(a, st.max_mean, 2), fmt_fixed(b, st.window_max_mean, 2),
             st.hot_defined ? run->servers[st.hot].name : "-",
             st.hot_defined ? fmt_percent(c, st.hot_share) : "-");
    emit(out, l, &lines);
    line_start(l, width, v->color);
    putf(l, "regions %" PRIu64 "  splits %" PRIu64 "  moves %" PRIu64 "  balancer runs %" PRIu64,
         st.regions_total, st.splits, st.moves, st.balancer_runs);
    emit(out, l, &lines);

    /* the latest events, newest first */
    int room = height - lines - (v->keys ? 1 : 0) - 1;
    line_start(l, width, v->color);
    put(l, st.events ? "latest:" : "latest: nothing has happened yet");
    emit(out, l, &lines);
    for (size_t i = st.events; i-- > 0 && room > 0; room--) {
        line_start(l, width, v->color);
        put_event(l, run, &run->events[i]);
        emit(out, l, &lines);
    }
    if (v->keys) {
        while (lines < height - 1) {
            line_start(l, width, v->color);
            emit(out, l, &lines);
        }
        line_start(l, width, v->color);
        put(l, "space pause   \u2192 step   + faster   - slower   q quit");
        emit(out, l, &lines);
    }
    free(st.regions), free(st.present), free(shown), free(l);
    return ferror(out) ? -1 : 0;
}

int watchview_line(FILE *out, const run_result *run, uint64_t t_us)
{
    uint32_t n = run->nservers;
    watch_state st;
    st.regions = malloc((n ? n : 1) * sizeof *st.regions);
    st.present = malloc(n ? n : 1);
    if (!st.regions || !st.present || watchview_state(run, t_us, &st) < 0) {
        free(st.regions), free(st.present);
        return -1;
    }
    char clock[24], a[CELL], b[CELL], c[CELL];
    fprintf(out, "%s hot %s (%s) max/mean %s window %s regions %" PRIu64 " splits %" PRIu64
            " moves %" PRIu64 "\n", watchview_clock(clock, sizeof clock, t_us),
            st.hot_defined ? run->servers[st.hot].name : "-",
            st.hot_defined ? fmt_percent(a, st.hot_share) : "-", fmt_fixed(b, st.max_mean, 2),
            fmt_fixed(c, st.window_max_mean, 2), st.regions_total, st.splits, st.moves);
    free(st.regions), free(st.present);
    return ferror(out) ? -1 : 0;
}
