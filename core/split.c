/* split.c -- HBase's region split policies and split restrictions.
 *
 * See split.h for the rules and the HBase classes they come from. Design:
 * every rule is a small pure function of the policy, the region and what
 * the caller passes in (bytes, regions on the server, busy counters); the
 * only state written is r->next_split_check (after a refusal, and by
 * split_due under the constant and stepping policies: the region's own
 * size cached) and the caller's split_busy_stats. No global mutable state.
 */
#include "core/split.h"

#include <string.h>

/* --- defaults ------------------------------------------------------------ */

void split_policy_defaults(split_policy *p, split_kind kind)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->max_bytes = SPLIT_DEFAULT_MAX_BYTES;     /* HConstants.DEFAULT_MAX_FILE_SIZE = 10 GiB */
    p->flush_bytes = SPLIT_DEFAULT_FLUSH_BYTES; /* DEFAULT_MEMSTORE_FLUSH_SIZE = 128 MiB */
    p->jitter = SPLIT_DEFAULT_JITTER;           /* conf.getDouble("...jitter", 0.25D) */
    p->busy_blocked_ratio = SPLIT_DEFAULT_BUSY_RATIO;
    p->busy_min_age_us = SPLIT_DEFAULT_BUSY_MIN_AGE_US;
    p->busy_window_us = SPLIT_DEFAULT_BUSY_WINDOW_US;
    p->restriction = RESTRICT_NONE;             /* RegionSplitRestriction: "None" by default */
}

/* --- jitter -------------------------------------------------------------- */

/* splitmix64's finaliser (Steele, Lea, Flood 2014): a bijective mix. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* FNV-1a, 64 bits, over k's bytes. */
static uint64_t fnv1a64(keyref k)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < k.len; i++)
        h = (h ^ k.data[i]) * 0x100000001B3ull;
    return h;
}

/* The region's uniform draw in [0,1): stands for HBase's RANDOM.nextFloat(). */
static double region_uniform(const split_policy *p, const region *r)
{
    uint64_t h = mix64(p->jitter_seed);
    h = mix64(h ^ r->id);
    h = mix64(h ^ fnv1a64(region_start(r)));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0); /* / 2^53 */
}

/* max + (long)(max * rate), clamped to [0, UINT64_MAX] (HBase clamps the
 * top at Long.MAX_VALUE: ConstantSizeRegionSplitPolicy.configureForRegion). */
static uint64_t add_jitter(uint64_t max, double rate)
{
    double jv = (double)max * rate;
    if (jv >= 0) {
        if (jv >= (double)(UINT64_MAX - max))
            return UINT64_MAX;
        return max + (uint64_t)jv;
    }
    if (-jv >= (double)max)
        return 0;
    return max - (uint64_t)(-jv);
}

uint64_t split_desired_max(const split_policy *p, const region *r)
{
    if (p->jitter == 0)
        return p->max_bytes;
    return add_jitter(p->max_bytes, (region_uniform(p, r) - 0.5) * p->jitter);
}

/* --- size rules ---------------------------------------------------------- */

/* IncreasingToUpperBound.configureForRegion: the conf value if > 0, else 2 x
 * the flush size. */
static uint64_t initial_size(const split_policy *p)
{
    return p->initial_bytes ? p->initial_bytes : 2 * p->flush_bytes;
}

/* IncreasingToUpperBound.getSizeToCheck: n == 0 or n > 100 (an overflow
 * guard) give the desired max, else min(desired, initial * n^3). */
static uint64_t increasing_size(const split_policy *p, uint64_t desired, uint64_t n)
{
    if (n == 0 || n > 100)
        return desired;
    uint64_t cube = n * n * n, init = initial_size(p);
    if (init > UINT64_MAX / cube)
        return desired;
    return init * cube < desired ? init * cube : desired;
}

/* SteppingSplitPolicy.getSizeToCheck: initial when this is the table's only
 * region on the server, else the desired max. */
static uint64_t stepping_size(const split_policy *p, uint64_t desired, uint64_t n)
{
    return n == 1 ? initial_size(p) : desired;
}

uint64_t split_size_to_check(const split_policy *p, const region *r, uint64_t n)
{
    switch (p->kind) {
    case SPLIT_CONSTANT:
        return split_desired_max(p, r);
    case SPLIT_INCREASING:
    case SPLIT_BUSY: /* BusyRegionSplitPolicy extends IncreasingToUpperBound */
        return increasing_size(p, split_desired_max(p, r), n);
    case SPLIT_STEPPING:
        return stepping_size(p, split_desired_max(p, r), n);
    case SPLIT_DISABLED:
    default:
        return UINT64_MAX;
    }
}

/* The least size the rule can give before the jitter draw: skips the hash
 * on the writes that cannot be due. The jitter lowers desired by at most
 * max * jitter / 2 (rate >= -jitter/2). */
static uint64_t size_floor(const split_policy *p, uint64_t n)
{
    double lo_rate = p->jitter > 0 ? -0.5 * p->jitter : 0;
    uint64_t desired_lo = add_jitter(p->max_bytes, lo_rate);
    desired_lo = desired_lo > 0 ? desired_lo - 1 : 0; /* double rounding slack */
    switch (p->kind) {
    case SPLIT_INCREASING:
    case SPLIT_BUSY:
        return increasing_size(p, desired_lo, n);
    case SPLIT_STEPPING:
        return stepping_size(p, desired_lo, n);
    default:
        return desired_lo;
    }
}

uint64_t split_first_check(const split_policy *p)
{
    if (p->kind == SPLIT_DISABLED)
        return UINT64_MAX;
    /* size_floor is smallest at n = 0 (the plain size) or n = 1 (the
     * increasing and stepping policies' initial size). */
    uint64_t a = size_floor(p, 0), b = size_floor(p, 1);
    return a < b ? a : b;
}

int split_due_past_check(const split_policy *p, region *r, uint64_t bytes,
                         uint64_t regions_on_server)
{
    if (bytes <= size_floor(p, regions_on_server))
        return 0;
    uint64_t size = split_size_to_check(p, r, regions_on_server);
    if (bytes > size)
        return 1;
    /* The constant rule's size is the region's own, whatever shares its
     * server: nothing can be due before it is passed. The stepping rule's
     * is the same for any count of regions but 1 (then the initial size):
     * nothing can be due before it is passed unless the region is alone
     * (split_due reads the flag). */
    if (p->kind == SPLIT_CONSTANT)
        r->next_split_check = size < UINT64_MAX ? size + 1 : UINT64_MAX;
    else if (p->kind == SPLIT_STEPPING && regions_on_server != 1 &&
             size < SPLIT_CHECK_UNLESS_ALONE - 1)
        r->next_split_check = (size + 1) | SPLIT_CHECK_UNLESS_ALONE;
    return 0;
}

/* --- split point --------------------------------------------------------- */

/* The restriction's cut of `point` (RegionSplitRestriction.getRestrictedSplitPoint). */
static keyref restrict_point(const split_policy *p, keyref point)
{
    switch (p->restriction) {
    case RESTRICT_KEY_PREFIX: /* Arrays.copyOf(point, min(prefixLength, len)); <= 0: none */
        if (p->prefix_len > 0 && p->prefix_len < point.len)
            point.len = p->prefix_len;
        return point;
    case RESTRICT_DELIMITED: { /* up to the first delimiter; none found: unchanged */
        const uint8_t *d = point.len ? memchr(point.data, p->delimiter, point.len) : NULL;
        if (d)
            point.len = (size_t)(d - point.data);
        return point;
    }
    case RESTRICT_NONE:
    default:
        return point;
    }
}

/* Whether `point` is a valid split row for r: non-empty, inside [start,
 * end) (HRegion.checkRow) and not the start key (checkSplittable). */
static int point_acceptable(const region *r, keyref point)
{
    return point.len > 0 && region_contains(r, point) &&
           key_compare(point, region_start(r)) != 0;
}

/* The middle row, unless it is the first or last row (StoreUtils.getFileSplitPoint). */
static int middle_row(region *r, keyref *mid)
{
    keyref first, last;
    return store_middle_key(r->rows, mid) == 0 &&
           store_first_last(r->rows, &first, &last) == 0 &&
           key_compare(*mid, first) != 0 && key_compare(*mid, last) != 0;
}

/* After a refusal, look again after another flush's worth of bytes. */
static void schedule_next_look(const split_policy *p, region *r)
{
    uint64_t step = p->flush_bytes ? p->flush_bytes : p->max_bytes / 8;
    r->next_split_check = store_bytes(r->rows) + (step ? step : 1);
}

int split_decide(const split_policy *p, region *r, keyref *at, uint8_t *buf, size_t bufcap)
{
    keyref mid;
    if (!middle_row(r, &mid)) {
        schedule_next_look(p, r);
        return 0;
    }
    keyref point = restrict_point(p, mid);
    if (!point_acceptable(r, point)) {
        schedule_next_look(p, r);
        return 0;
    }
    if (buf && bufcap >= point.len) {
        memcpy(buf, point.data, point.len);
        point.data = buf;
    }
    *at = point;
    return 1;
}

/* --- busy ---------------------------------------------------------------- */

/* BusyRegionSplitPolicy.configureForRegion resets a ratio outside
 * [0.00001, 0.99999] and a window <= 0 to their defaults. */
double split_busy_threshold(const split_policy *p)
{
    double t = p->busy_blocked_ratio;
    return (t < 0.00001 || t > 0.99999) ? SPLIT_DEFAULT_BUSY_RATIO : t;
}

static uint64_t busy_window(const split_policy *p)
{
    return p->busy_window_us ? p->busy_window_us : SPLIT_DEFAULT_BUSY_WINDOW_US;
}

void split_busy_start(split_busy_stats *s, uint64_t now_us, uint64_t writes, uint64_t blocked)
{
    s->start_us = s->prev_us = now_us;
    s->writes_mark = writes;
    s->blocked_mark = blocked;
    s->blocked_rate = 0;
}

/* BusyRegionSplitPolicy.updateRate: the ratio since the window began (with
 * HBase's +0.00001 in the denominator); a full window past: it becomes the
 * window's rate and a new window starts; past the first window: blended
 * with the last window's rate by the fraction of the window elapsed;
 * within the first window: 0. */
double split_busy_rate(const split_policy *p, split_busy_stats *s, uint64_t now_us,
                       uint64_t writes, uint64_t blocked)
{
    uint64_t window = busy_window(p);
    double rate = (double)(blocked - s->blocked_mark) /
                  ((double)(writes - s->writes_mark) + 0.00001);
    if (now_us - s->prev_us >= window) {
        s->blocked_rate = rate;
        s->prev_us = now_us;
        s->blocked_mark = blocked;
        s->writes_mark = writes;
        return rate;
    }
    if (now_us - s->start_us >= window) {
        double slice = (double)(now_us - s->prev_us) / (double)window;
        return (1 - slice) * s->blocked_rate + slice * rate;
    }
    return 0;
}

int split_busy_due(const split_policy *p, split_busy_stats *s, uint64_t now_us,
                   uint64_t writes, uint64_t blocked, double *rate_out)
{
    if (p->kind != SPLIT_BUSY)
        return 0;
    double rate = split_busy_rate(p, s, now_us, writes, blocked);
    if (rate_out)
        *rate_out = rate;
    if (now_us < s->start_us + p->busy_min_age_us)
        return 0;
    return rate >= split_busy_threshold(p);
}
