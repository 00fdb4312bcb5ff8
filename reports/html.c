/* html.c -- the classroom report: one self-contained page of heatmaps.
 *
 * Files: html.c writes the page (its head, CSS, legends, the panels in
 * order, the footer), the escaped text and the key labels; html_summary.c
 * the summary table and its verdicts; html_heatmap.c the heatmaps, colour
 * scales and time axis; html_panel.c a panel's tables and timeline;
 * html_impl.h is what they share.
 *
 * Design: one XHTML page (well-formed XML, so xmllint reads it; browsers
 * parse it as HTML5) with inline CSS and SVG and nothing fetched; one inline
 * script plays the region maps (html_regionmap.c), and the page reads
 * without it.
 * A header echoes the configuration, then a summary table (a row per
 * scheme: its imbalance, p99, RPCs per read, splits, moves and a verdict
 * in words, so a 12-scheme page reads at a glance before its ~14,000
 * pixels of panels), then one legend per colour scale. A CSS grid below
 * holds one panel per run (key scheme): its imbalance figures, its
 * heatmaps (server x time and key space x time, of writes and, when the
 * run read, of read RPCs), its throughput, latency and read cost, its
 * hottest regions and a timeline of splits, moves and server events; a
 * page of one run drops the grid and takes the full width (and does not
 * speak of comparing schemes). Every figure comes from stats.h and the
 * registry (figures.h). The summary, panels and legends carry id,
 * data-scheme, data-figure and data-scale attributes for scripts and the
 * browser test (docs/reports.md gives the contract). With samples
 * (--samples N) the header names their seeds and each panel's Figures
 * table shows a figure's median and min-max across them; the rest of a
 * panel (and the summary) is the first sample's run.
 *
 * Shared scales: each kind of heatmap (server writes, server reads, key
 * writes, key reads) has ONE scale over every panel, so a colour means the
 * same count everywhere. A scale is centred on the even share, the mean
 * cell of its kind over every panel (stats_shared_mean), and its steps are
 * ratios: each of the LEVELS steps is SCALE_STEP_SERVERS (sqrt 2) times
 * the one below on the server scales, SCALE_STEP_KEYS (2) on the key
 * scales, the even share in the MIDDLE of its step and the hottest cell of
 * any run (stats_shared_max) in the top one (html_scale_of; the step grows
 * when the range is too wide for that). Key scales are coarser because
 * key buckets' counts are estimates past the sample size (+-10-20%: salted
 * on the default scenario, whose active buckets get 2.5x the mean, showed
 * two shades at sqrt 2) and because a scheme that writes a few buckets at
 * a time gives them a multiple of the mean, not the mean. Linear steps up to the maximum
 * (the first design) put the even share of the default scenario, 1/8 of
 * the maximum, exactly on a step, so an even scheme whose servers differ
 * by 2% drew a checkerboard of two colours; with sqrt 2 steps anything
 * within +-19% of the even share is one colour, and a doubling is always
 * two steps, which is what the eye should compare. The price: an even
 * scheme whose rate differs much from the page's mean (another throughput)
 * may sit nearer a step. The palette is viridis reversed (perceptually
 * uniform, monotone in lightness, readable in grey and by most colour-blind
 * readers): yellow = little, dark purple = the most (the top steps stay
 * unused when the hottest cell is near the even share); zero is a light grey
 * that no non-zero value gets, so "nothing" and "a little" never look
 * alike.
 *
 * Size: a compare page holds tens of thousands of cells, so a cell is as
 * short as SVG allows: `<rect x="12" y="3"/>` in a nested <svg> whose
 * viewBox is one unit per cell, inside a <g class="c5"> that holds every
 * cell of that colour level (zero cells come first, outside any group);
 * neighbours of one level in a row are one rect with a width (an even row:
 * one element). Height, and the width of a single cell, come from CSS, an
 * SVG 2 geometry property that current browsers support (older renderers
 * would draw nothing); a fill or class per cell would cost a third more.
 * Quantising to LEVELS classes, instead of a colour per cell, keeps the
 * page small and the legend exact.
 *
 * Tooltips: every cell of every page has its exact value on hover. A
 * <title> per cell would double a noisy compare page (it once was kept to
 * pages of at most 4,000 cells, so a compare page had none), and a title
 * on the merged runs of one colour would still cost one per cell on noisy
 * data. Instead a transparent layer over the cells holds one rect per
 * TIP_COLS columns of a row, its <title> naming the row and time span and
 * listing each cell's value in order: about 14 bytes a cell on noise, and
 * the default compare page went from 384 KB to 365 KB. The price: a
 * tooltip shows ten values and the reader finds the cell among them by its
 * time. No script is needed (so none is used). Runs with more than
 * HEAT_COLS_MAX windows show groups of windows per column, each cell the
 * mean per window of its group, so the shared per-window scale holds.
 * Timeline events are dashes on one path per kind, merged when they fall
 * on the same pixel: thousands of splits cost a few kilobytes.
 *
 * Keys in labels and the regions table are cut to a few columns with
 * "..." (never inside a \xNN escape). Row keys often share a long prefix
 * (a timestamp's high bytes), which would leave every label the same, so
 * a prefix that all the keys shown share is left out (shown as "...") and
 * printed once in a note. A key bucket's label also keeps the token where
 * its start first differs from its neighbours' (html_bucket_label): when
 * cutting the end would lose it, the middle goes instead (salted buckets
 * read "\x06...R\x1D\xA4", "\x06...]\x0D\x01", not "\x06\x00\x00..." three
 * times), so neighbouring labels never read alike.
 *
 * Text from the results is escaped for XML (& < > " ') and sanitised: bytes
 * that are not UTF-8 and characters XML 1.0 forbids (C0 controls but tab,
 * newline and return; U+FFFE, U+FFFF) become U+FFFD. The writer's few
 * allocations (the busiest servers, binned heatmap rows, scratch copies)
 * exit with a message when they fail (report_out_of_memory: the page is
 * rendered to a temporary file first); output is a pure function of the
 * results: no time stamps.
 */
#include "reports/report.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/format.h"
#include "reports/figures.h"
#include "reports/html_impl.h"
#include "reports/stats.h"

static const char *const REPLACEMENT = "\xEF\xBF\xBD"; /* U+FFFD */

/* ---- text ---- */

/* The first len bytes of s (or up to its end) as XML text or attribute
 * value; NULL prints "-". */
void html_put_text_n(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "-");
    const unsigned char *end = p + (s ? len : 1);
    while (p < end && *p) {
        size_t n = utf8_sequence_len(p);
        if ((size_t)(end - p) < n) n = 0; /* a sequence cut by len */
        if (n == 0 || xml_forbids(p, n)) {
            fputs(REPLACEMENT, out);
            p += n ? n : 1;
            continue;
        }
        if (n > 1) {
            fwrite(p, 1, n, out);
            p += n;
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*p, out);
        }
        p++;
    }
}

void html_put_text(FILE *out, const char *s)
{
    html_put_text_n(out, s, s ? strlen(s) : 0);
}

/* Characters of the token at the start of a shell-form key: a \xNN escape
 * or one character. */
static size_t key_token_len(const char *s)
{
    return s[0] == '\\' && s[1] == 'x' && s[2] && s[3] ? 4 : 1;
}

/* The prefix, in characters, that every non-empty key of keys[0..n)
 * shares and that labels leave out when a key is too long for `cols`:
 * whole tokens only, at least PREFIX_MIN characters, and never a whole
 * key. 0 when nothing is worth leaving out. */
size_t html_shared_prefix(const char *const *keys, size_t n, size_t cols)
{
    const char *first = NULL;
    size_t common = 0, shortest = 0, nonempty = 0;
    int too_long = 0;
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i];
        if (!k || !k[0]) continue;
        size_t len = strlen(k), at = 0;
        too_long |= len > cols;
        if (!first) {
            first = k, common = len, shortest = len;
        } else {
            while (at < common && first[at] == k[at]) at++;
            common = at;
            if (len < shortest) shortest = len;
        }
        nonempty++;
    }
    if (!too_long || nonempty < 2) return 0;
    size_t limit = common < shortest ? common : shortest - 1, at = 0;
    while (at < limit && at + key_token_len(first + at) <= limit) at += key_token_len(first + at);
    return at >= PREFIX_MIN ? at : 0;
}

/* A key in at most `cols` characters: "" (or NULL) as `unbounded`, else
 * without its first `skip` characters (shown as "...") and cut to fit. */
const char *html_key_label(char *buf, const char *key, size_t skip, const char *unbounded,
                             size_t cols)
{
    if (!key || !key[0]) return fmt_cut(buf, unbounded, cols);
    if (skip == 0 || strlen(key) <= skip) return fmt_cut(buf, key, cols);
    strcpy(buf, "...");
    fmt_cut(buf + 3, key + skip, cols - 3);
    return buf;
}

/* Characters a and b share at their start. */
static size_t common_chars(const char *a, const char *b)
{
    size_t n = 0;
    while (a[n] && a[n] == b[n]) n++;
    return n;
}

/* The start of the token of key k that holds character `at` (at < strlen(k)). */
static size_t token_start(const char *k, size_t at)
{
    size_t t = 0;
    while (t + key_token_len(k + t) <= at) t += key_token_len(k + t);
    return t;
}

/* Characters of s that fmt_cut(buf, s, cols) keeps: all of s when it
 * fits, else the whole tokens that fit before its "...". */
static size_t cut_keeps(const char *s, size_t cols)
{
    size_t len = strlen(s), keep = 0;
    if (len <= cols) return len;
    while (keep < len && keep + key_token_len(s + keep) <= cols - 3) keep += key_token_len(s + keep);
    return keep;
}

/* Key i of the sorted keys[0..n) in at most `cols` characters, so that
 * neighbours' labels differ: it keeps the token where key i first differs
 * from the key before or after it (whichever is later). A key that fits
 * (after the shared prefix `skip`) is whole; one whose cut still holds
 * that token is cut at its end (html_key_label); else the middle goes:
 * the first token (the salt or hash byte; "..." when a shared prefix is
 * left out), "...", and the key from that token on, cut to fit. */
const char *html_bucket_label(char *buf, const char *const *keys, size_t n, size_t i,
                              size_t skip, size_t cols)
{
    const char *key = keys[i];
    html_key_label(buf, key, skip, "-inf", cols);
    if (!key || !key[0]) return buf;
    size_t len = strlen(key), differ = 0;
    if (i > 0 && keys[i - 1]) differ = common_chars(keys[i - 1], key);
    if (i + 1 < n && keys[i + 1] && common_chars(key, keys[i + 1]) > differ)
        differ = common_chars(key, keys[i + 1]);
    if (differ >= len) return buf; /* a prefix of its neighbour: its end tells them apart */
    size_t from = token_start(key, differ);
    size_t to = from + key_token_len(key + from);
    size_t skipped = skip && len > skip ? skip : 0;
    size_t kept = skipped + cut_keeps(key + skipped, skipped ? cols - 3 : cols);
    if (kept >= to) return buf;
    char head[CELL];
    if (skipped) strcpy(head, "...");
    else snprintf(head, sizeof head, "%.*s...", (int)key_token_len(key), key);
    size_t h = strlen(head);
    if (h + 4 > cols) return buf; /* no room: the ordinary label */
    strcpy(buf, head);
    fmt_cut(buf + h, key + from, cols - h);
    return buf;
}

/* The note that labels leave out a shared prefix, if they do. */
void html_write_prefix_note(FILE *out, const char *key, size_t skip, const char *what)
{
    if (skip == 0) return;
    fprintf(out, " %s leave out the prefix they all share (shown as ...): <code>", what);
    html_put_text_n(out, key, skip);
    fputs("</code>.", out);
}

/* ---- figures ---- */

/* A scale tick: integers as such, small fractions with 3 digits. */
const char *html_fmt_tick(char *buf, double v)
{
    if (v == floor(v) || v >= 100) snprintf(buf, CELL, "%.0f", v);
    else snprintf(buf, CELL, "%.3g", v);
    return buf;
}

/* ---- the page head ---- */

static void write_css(FILE *out)
{
    char c[CELL];
    fputs("<style>\n"
          "body{font:18px/1.45 \"DejaVu Sans\",Verdana,Arial,sans-serif;color:#111;"
          "background:#fff;margin:20px 28px}\n"
          "h1{font-size:34px;margin:0 0 8px}h2{font-size:28px;margin:0;overflow-wrap:anywhere}\n"
          "h3{font-size:21px;margin:18px 0 4px}\n"
          "code,.key{font-family:\"DejaVu Sans Mono\",Menlo,Consolas,monospace;"
          "overflow-wrap:anywhere}\n"
          "table{border-collapse:collapse}th,td{padding:2px 10px 2px 0;vertical-align:top}\n"
          "th{text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          ".config th{padding-right:16px}.note{font-size:16px;color:#333;margin:2px 0}\n"
          ".scales{display:flex;flex-wrap:wrap;gap:8px 40px}"
          ".scales .legend{display:block;max-width:620px;margin:0}\n"
          ".runs{display:grid;grid-template-columns:repeat(auto-fill,minmax(640px,1fr));"
          "gap:28px;margin-top:20px}.runs.one{display:block}\n"
          ".panel{border:3px solid #222;border-radius:8px;padding:12px 18px;min-width:0}\n"
          "#summary{font-size:17px;margin:8px 0 4px}#summary th,#summary td{border-bottom:1px "
          "solid #bbb;padding:3px 14px 3px 0}#summary tr:first-child th{border-bottom:2px solid "
          "#222;vertical-align:bottom}#summary td{text-align:right;"
          "font-variant-numeric:tabular-nums}#summary td.verdict{text-align:left}\n"
          ".costs td,.costs th{text-align:right;font-variant-numeric:tabular-nums}"
          ".costs th:first-child{text-align:left}\n"
          ".head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px 24px}\n"
          ".head p{margin:4px 0}.figs{font-size:17px}.figs th{font-weight:normal}\n"
          ".all{font-size:15px}.all th{font:14px \"DejaVu Sans Mono\",Menlo,Consolas,monospace}"
          ".wide{overflow-x:auto}.sch td:nth-child(3n+2),.srv td,.srv th{text-align:right}"
          ".srv td:last-child{text-align:left}"
          "summary{font-size:17px;margin-top:8px}summary h3{display:inline}\n"
          ".regions{font-size:16px}.regions th{border-bottom:2px solid #222}\n"
          ".regions td{border-bottom:1px solid #bbb;white-space:nowrap}.regions td.key{font-size:15px}\n"
          "svg{display:block;width:100%;height:auto;max-width:900px}\n"
          "svg text{font-size:15px;fill:#111}svg .title{font-size:16px;font-weight:bold}\n"
          "svg .key{font-size:14px}.axis path,.tick{stroke:#111;stroke-width:1.5}\n"
          ".axis,.legend svg{text-anchor:middle}.yl{text-anchor:end}\n"
          ".frame{fill:none;stroke:#111;stroke-width:1.5}.lane{stroke:#bbb}\n"
          ".cells{fill:" ZERO_COLOUR "}.cells rect{height:1px}.cells rect:not([width]){width:1px}"
          ".tip{fill:transparent}"
          ".zero{fill:" ZERO_COLOUR "}\n",
          out);
    for (int k = 1; k <= LEVELS; k++) fprintf(out, ".c%d{fill:%s}", k, html_level_colour(c, k));
    fputs("\n.k0{stroke:#0072b2}.k1{stroke:#e69f00}.k2{stroke:#009e73}.k3{stroke:#cc79a7}"
          ".k4{stroke:#d55e00}.k5{stroke:#000}.k6{stroke:#56b4e9}\n"
          ".ev path{stroke-width:2;fill:none}.ev .swatch{stroke-width:12}\n"
          ".warm{fill:#fff;fill-opacity:0.55;pointer-events:none}.measure{stroke:#111;stroke-width:2;"
          "stroke-dasharray:6 4}.unsteady{color:#b00}\n", out);
    html_write_regionmap_css(out);
    fputs("</style>\n", out);
}

/* With samples (nsamples > 1), the configuration's row that says which
 * seeds ran and what the panels show of them; nothing for a single run. */
static void write_samples_config(FILE *out, const sim_results *res)
{
    if (res->nsamples <= 1)
        return;
    fprintf(out, "<tr><th>samples</th><td>%" PRIu32 " (seeds %" PRIu64 "..%" PRIu64 "): the "
            "panels show seed %" PRIu64 ", their Figures tables the median and min&#8211;max "
            "across the samples</td></tr>\n", res->nsamples, res->seed,
            res->seed + res->nsamples - 1, res->seed);
}

/* The configuration, as text.c's header shows it. */
static void write_config(FILE *out, const sim_results *res)
{
    char a[CELL], b[CELL], c[CELL];
    fputs("<table class=\"config\">\n<tr><th>scenario</th><td>", out);
    html_put_text(out, res->scenario);
    fprintf(out, " (seed %" PRIu64 ")</td></tr>\n", res->seed);
    write_samples_config(out, res);
    fprintf(out, "<tr><th>cluster</th><td>%" PRIu32 " servers; ", res->servers);
    html_put_text(out, res->split_policy);
    fprintf(out, " split at %s; ", fmt_bytes(a, res->region_max_bytes));
    if (!res->balancer || strcmp(res->balancer, "none") == 0) {
        fputs("no balancer", out);
    } else {
        fputs("balancer ", out);
        html_put_text(out, res->balancer);
        fprintf(out, " every %s, first at %s", fmt_duration(b, res->balancer_period_us),
                fmt_duration(a, res->balancer_first_us));
    }
    fprintf(out, "; window %s</td></tr>\n<tr><th>workload</th><td>", fmt_duration(c, res->window_us));
    html_put_text(out, res->workload);
    fprintf(out, "; %" PRIu64 " B per cell beyond the key</td></tr>\n",
            res->cell_overhead_bytes);
    char store[256];
    stats_store_note(res, store, sizeof store);
    if (*store) {
        fputs("<tr><th>store</th><td>", out);
        html_put_text(out, store);
        fputs("</td></tr>\n", out);
    }
    stats_engine_note(res, store, sizeof store);
    if (*store) {
        fputs("<tr><th>engine</th><td>", out);
        html_put_text(out, store);
        fputs("</td></tr>\n", out);
    }
    stats_measured_note(res, store, sizeof store);
    fputs("<tr><th>measured</th><td>", out);
    html_put_text(out, store);
    fputs("</td></tr>\n</table>\n", out);
}

/* What each shared scale measures, indexed by STATS_SERVER_WRITES ... */
static const char *const SCALE_TITLE[4] = {
    "writes per server and window", "read RPCs per server and window",
    "writes per key bucket and window", "read RPCs per key bucket and window",
};

/* The legends' data-scale names, indexed the same way. */
static const char *const SCALE_NAME[4] = {
    "server-writes", "server-reads", "key-writes", "key-reads",
};

/* "2x", "1/4x", "2.93x": a level's multiple of the even share. */
static const char *fmt_ratio(char *buf, double r)
{
    char a[CELL];
    snprintf(buf, CELL, "%s%s&#215;", r >= 1 ? "" : "1/", html_fmt_tick(a, r >= 1 ? r : 1 / r));
    return buf;
}

/* One legend: the zero swatch and the LEVELS steps, each with its range
 * as a tooltip; "even" over the even share's step, "max" over the
 * hottest cell's; under every other step from the even one (up to 6
 * away), its multiple of the even share. */
static void write_scale_legend(FILE *out, int which, const colour_scale *sc)
{
    enum { RAMP_X = 110, STEP_W = 26, TOP = 24, SWATCH_H = 28 };
    char a[CELL], b[CELL];
    fprintf(out, "<div class=\"legend\" data-scale=\"%s\"><h3>Scale: %s</h3>\n", SCALE_NAME[which],
            SCALE_TITLE[which]);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
            "style=\"max-width:%dpx\">\n<title>colour scale: %s, 0 to %" PRIu64 "</title>\n",
            RAMP_X + LEVELS * STEP_W + 30, TOP + SWATCH_H + 30, RAMP_X + LEVELS * STEP_W + 30,
            SCALE_TITLE[which], sc->max);
    fprintf(out, "<rect class=\"zero\" x=\"0\" y=\"%d\" width=\"40\" height=\"%d\"/>"
            "<rect class=\"frame\" x=\"0\" y=\"%d\" width=\"40\" height=\"%d\"/>"
            "<text x=\"48\" y=\"%d\" text-anchor=\"start\">= 0</text>\n",
            TOP, SWATCH_H, TOP, SWATCH_H, TOP + 20);
    for (int k = 1; k <= LEVELS; k++) {
        fprintf(out, "<rect class=\"c%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>",
                k, RAMP_X + (k - 1) * STEP_W, TOP, STEP_W, SWATCH_H);
        if (sc->max == 0)
            fputs("unused", out);
        else if (k == 1)
            fprintf(out, "more than 0, less than %s", html_fmt_tick(a, html_level_floor(sc, 2)));
        else if (k == LEVELS)
            fprintf(out, "%s to %" PRIu64, html_fmt_tick(a, html_level_floor(sc, k)), sc->max);
        else
            fprintf(out, "%s to %s", html_fmt_tick(a, html_level_floor(sc, k)),
                    html_fmt_tick(b, html_level_floor(sc, k + 1)));
        fputs("</title></rect>", out);
    }
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n",
            RAMP_X, TOP, LEVELS * STEP_W, SWATCH_H);
    if (sc->max > 0) {
        double even_x = RAMP_X + (sc->even - 0.5) * STEP_W;
        int top = html_level_of((double)sc->max, sc);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\">even</text>", even_x, TOP - 6);
        if (top > sc->even + 1)
            fprintf(out, "<text x=\"%.1f\" y=\"%d\">max</text>", RAMP_X + (top - 0.5) * STEP_W,
                    TOP - 6);
        for (int k = 1; k <= LEVELS; k++) {
            if ((k - sc->even) % 2 != 0 || abs(k - sc->even) > 6) continue; /* room for the text */
            double x = RAMP_X + (k - 0.5) * STEP_W;
            fprintf(out, "<path class=\"tick\" d=\"M%.1f %dv6\"/><text x=\"%.1f\" y=\"%d\">%s</text>",
                    x, TOP + SWATCH_H, x, TOP + SWATCH_H + 24,
                    fmt_ratio(a, pow(sc->step, k - sc->even)));
        }
    }
    fputs("\n</svg>\n", out);
    if (sc->max == 0)
        fputs("<p class=\"note\">No run had any: every cell is 0.</p>\n", out);
    else
        fprintf(out, "<p class=\"note\">1&#215; = <strong>even</strong>: %s, the mean cell of "
                "every panel (what each would get if the load were spread evenly), in the "
                "middle of its step; each step is %s&#215; the one before%s; %" PRIu64
                " = the hottest cell of any panel.</p>\n",
                html_fmt_tick(b, sc->mean), html_fmt_tick(a, sc->step),
                sc->step == SCALE_STEP_SERVERS ? " (two steps: double)"
                : sc->step == SCALE_STEP_KEYS ? "" : " (wider steps: the range is wide)",
                sc->max);
    fputs("</div>\n", out);
}

static int any_reads(const sim_results *res)
{
    for (size_t r = 0; r < res->nruns; r++)
        if (res->runs[r].reads > 0) return 1;
    return 0;
}

static void write_header(const page *pg, const sim_results *res)
{
    FILE *out = pg->out;
    fputs("<header>\n<h1>Where the load lands: ", out);
    html_put_text(out, res->scenario);
    fputs("</h1>\n", out);
    write_config(out, res);
    html_write_summary(out, res);
    html_write_regime(out, res);
    if (res->nruns >= 2)
        fprintf(out, "<p>One panel per row-key scheme (%zu). <strong>Every heatmap of one kind "
                "shares ONE colour scale across all panels</strong>, so schemes compare "
                "directly. ", res->nruns);
    else
        fputs("<p>Every heatmap of one kind has ONE colour scale (the legends below). ", out);
    fputs("Grey = nothing; the step marked <strong>even</strong> = the even share (every "
          "server the same); lighter = less, <strong>darker = more</strong>, up to the step "
          "marked max, the most in any one cell. Steps are ratios, so equal loads get one "
          "colour. Rows are servers, or key buckets with ascending keys going up; columns are "
          "report windows. Hover over a cell for its values.</p>\n", out);
    int reads = any_reads(res);
    fputs("<div class=\"scales\">\n", out);
    for (int which = STATS_SERVER_WRITES; which <= STATS_KEY_READS; which++)
        if (reads || which == STATS_SERVER_WRITES || which == STATS_KEY_WRITES)
            write_scale_legend(out, which, &pg->scale[which]);
    fputs("</div>\n</header>\n", out);
}

/* ---- the page ---- */

static void write_panel(const page *pg, const sim_results *res, size_t r)
{
    const run_result *run = &res->runs[r];
    fprintf(pg->out, "<section class=\"panel\" data-scheme=\"");
    html_put_text(pg->out, run->scheme_name);
    fprintf(pg->out, "\" id=\"run-%zu\">\n", r + 1);
    html_write_panel_head(pg->out, run);
    html_write_busiest_servers(pg->out, run);
    if (run->nwindows == 0 || run->window_us == 0)
        fputs("<p class=\"note\">No report windows: nothing to draw over time.</p>\n", pg->out);
    else {
        html_write_server_heatmaps(pg, run);
        html_write_key_heatmaps(pg, run);
        html_write_region_map(pg, run);
    }
    html_write_costs(pg->out, run);
    html_write_top_regions(pg->out, run);
    html_write_timeline(pg->out, run);
    html_write_all_figures(pg->out, res, r);
    fputs("</section>\n", pg->out);
}

/* The figures' glossary: every registry figure, its unit and meaning. */
static void write_glossary(FILE *out)
{
    fputs("<details><summary>Every figure</summary>\n<table class=\"all\">\n"
          "<tr><th>figure</th><th>unit</th><th>better</th><th>meaning</th></tr>\n", out);
    for (size_t i = 0; i < figure_count(); i++) {
        const figure *f = figure_get(i);
        fprintf(out, "<tr><th><code>%s</code></th><td>%s</td><td>%s</td><td>", f->name,
                f->unit[0] ? f->unit : "-", figure_better_name(f->better));
        html_put_text(out, f->meaning);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></details>\n", out);
}

static void write_footer(FILE *out, const sim_results *res)
{
    fprintf(out, "<footer>\n<h3>Reading the figures</h3>\n<p>max/mean: 1.00 = even, %" PRIu32
            " = everything on one server. CoV, Gini: 0 = even. Jain: 1 = even. hottest: the "
            "busiest server's share. window max/mean: the mean over report windows of each "
            "window's max/mean; worst window: the largest. Each panel's Figures table holds "
            "the figures of <code>regionsim figures</code> that are defined and not 0 for its "
            "run (unit - is a ratio); the glossary below lists every one.</p>\n",
            res->servers);
    write_glossary(out);
    fputs("</footer>\n", out);
}

void html_write(FILE *out, const sim_results *res)
{
    assert(out && res && (res->runs || res->nruns == 0));
    page pg = { out, { 0 }, { { 0 } } };
    for (int which = STATS_SERVER_WRITES; which <= STATS_KEY_READS; which++) {
        pg.max[which] = stats_shared_max(res, which);
        pg.scale[which] = html_scale_of(pg.max[which], stats_shared_mean(res, which),
                                        which == STATS_SERVER_WRITES || which == STATS_SERVER_READS
                                            ? SCALE_STEP_SERVERS : SCALE_STEP_KEYS);
    }

    fputs("<!DOCTYPE html>\n"
          "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
          "<title>regionsim: ", out);
    html_put_text(out, res->scenario);
    fputs("</title>\n", out);
    write_css(out);
    fputs("</head>\n<body>\n", out);
    write_header(&pg, res);
    fputs(res->nruns == 1 ? "<main class=\"runs one\">\n" : "<main class=\"runs\">\n", out);
    for (size_t r = 0; r < res->nruns; r++) write_panel(&pg, res, r);
    fputs("</main>\n", out);
    write_footer(out, res);
    html_write_player_script(out);
    fputs("</body>\n</html>\n", out);
}
