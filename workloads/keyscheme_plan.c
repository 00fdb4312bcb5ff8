/* keyscheme_plan.c -- planning a logical read into the row ranges it scans.
 *
 * Reads are planned from the parse tree (field[], keyscheme.c), not from
 * op[]: a query knows some record values (a GET all, a RANGE or LATEST
 * the entity, a METRIC the metric, a WINDOW none), and the planner walks
 * the top-level fields left to right. A field whose inputs the query
 * knows is evaluated (recursively, with the encoder's writers, looking
 * UIDs up without ever assigning one) and appended to every candidate
 * prefix; a bucket it cannot know multiplies the candidates by N; the
 * time field of a time query ends the walk, turning each candidate into a
 * range; anything else it cannot know makes the read a full scan.
 * Candidates are a shared template plus bucket slots, so planning
 * allocates nothing but the plan's own buffers.
 *
 * A query knows some of the values a key is made of: a GET all of them
 * (but not the RNG behind salt()), a RANGE or LATEST the entity, a METRIC
 * the metric (not the host, tags, entity or name of any of its series),
 * a WINDOW none. Each field says which values its own bytes read
 * (field.reads, R_ bits computed at parse time from what it writes and,
 * for uid() and tags, which names), so a field's bytes are known when it
 * reads nothing the query lacks; the planner sees only the values the
 * query gives (known_values), never the rest of the record it was handed.
 * The top-level fields are walked left to right building a template, the
 * bytes every candidate prefix shares, plus bucket slots: positions in the
 * template where a bucket the query cannot know takes each of its N
 * values. Candidate c fills the slots with the digits of c (the first slot
 * most significant), so candidates come out in key order.
 *
 * A METRIC query is OpenTSDB's everyday one: a metric, every series of it,
 * a time range. On OpenTSDB's own key, [salt] uid(metric) hour(ts) tags,
 * the walk gives what OpenTSDB scans (src/core/TsdbQuery.java, findSpans
 * and getScanner; src/query/QueryUtil.java, getMetricScanner): salted,
 * one scanner per bucket (getScanner(i) for i in 0 .. SALT_BUCKETS - 1,
 * merged by SaltScanner), because the salt hashes the metric and the
 * tags and the query knows no tags; unsalted, one. Each runs from
 * [salt][metric UID][start's base hour] (getScanStartTimeSeconds rounds
 * the start down to its hour) to [salt][metric UID][the hour after the
 * end's] (getScanEndTimeSeconds: "OpenTSDB's closed interval vs. HBase's
 * half-open"), the series' tags filtered. Here the stop row is the first
 * key past [metric UID][end's base hour]; no row lies between the two
 * stop rows, so both scan the same rows. A key without the metric ahead
 * of its time field gives what it gives a WINDOW: one range per bucket
 * ahead of the time field, or a full scan.
 *
 * A RANGE on a key with an osalt field is OpenTSDB's query of one series
 * (a metric and every tag named), and OpenTSDB serves it as it serves a
 * METRIC: with its defaults (tsd.query.multi_get.enable = false,
 * src/utils/Config.java setDefaults) TsdbQuery.findSpans opens
 * getScanner(i) for every i in 0 .. SALT_BUCKETS - 1 and merges them in a
 * SaltScanner, each scanner's row filter picking the series' tags
 * (createAndSetFilter). It never computes the series' salt, though the
 * query knows every value the salt hashes; so the planner takes the osalt
 * of a RANGE as unknown: one range per bucket, the series filtered. With
 * q->multi_get (tsd.query.multi_get.enable = true) TsdbQuery.runAsync
 * takes findSpansWithMultiGetter instead: MultiGetQuery.prepareRequests
 * makes one GetRequest per series per row base time, the key salted with
 * the series' own salt (RowKey.prefixKeyWithSalt; get_all_salts false by
 * default), for the base times prepareRowBaseTimes lists: from the start's
 * hour to end_row_time inclusive, end_row_time being getScanEndTimeSeconds
 * (the end in seconds, plus the one second its ms branch adds, rounded up
 * to the next hour). Each get is a range of one row here, one RPC each
 * (asynchbase's batching of a multi-get per server is not modelled); a
 * key with a field the series' query does not know is scanned per
 * bucket as without it. This is OpenTSDB's reader, so it applies to keys
 * of hour rows (the first time field hour(ts)), OpenTSDB's; an osalt key
 * of other rows is taken to be read by a client that computes the salt
 * (one range). GET and LATEST keep the salt they can compute (a client
 * that knows the row; /api/query/last salts its gets with the series'
 * salt).
 *
 * A SCAN is YCSB's scan (CoreWorkload.doTransactionScan: DB.scan(table,
 * startkey, recordcount); its HBase client scans from startRow = the row
 * key, `recordcount` rows): the first `limit` rows, in name order, of the
 * records named at or after the query's record. A record's name is what
 * the field `key` writes: a trace record's key as raw bytes (HBase
 * compares raw bytes, not the shell form record_name renders), else
 * record_name; name order is unsigned byte order of names, rows of one
 * name in key order. A table's rows are taken to be named as the query's
 * record is (one workload writes a table). It is planned apart from the
 * walk (plan_scan), which knows values of the record: rows with later
 * names share none of them.
 *  - Before the name only what every row shares narrows the range:
 *    literals (and anything else that reads no record value) are
 *    appended; a bucket (salt, hash, psalt, osalt) is expanded to all its
 *    N prefixes even when the query could compute its own record's
 *    bucket, since later names live in every bucket. Anything else ahead
 *    of the name (a time, seq, a UID, tags) is a full scan.
 *  - The first other field must write the name in name order: `key`;
 *    entity:str unless the records are a trace's (it writes the key's
 *    shell form, whose order is not the raw bytes': \x7F sorts before 'a');
 *    entity (4 bytes of the id) only where a name is the id in a fixed
 *    number of digits (NAMING_ID; YCSB's ordered names zero-padded to 10
 *    digits). Not entity under other namings (user9 after user10, user +
 *    fnvhash64 of the id, metric.NNN/hostNNNN past the padding,
 *    www/mail/api/blog), nor uid() (first-use order), reverse(),
 *    revdomain(), md5() or hash() of the name: a full scan.
 *  - Each candidate prefix P gives [P + name, the first key past every key
 *    starting with P) (P empty: to the table's end); the fields after the
 *    name do not narrow it: every row of the name is in, from its first.
 *  - Limit and exactness: when the rows of a range sort by name (the name
 *    ends the key; it is of fixed width or no name extends another, as
 *    for NAMING_ID, NAMING_DOMAIN and YCSB's names padded to their
 *    longest number; or a literal right after it starts with a byte
 *    below '.', the least byte of any name but a trace key), each range
 *    carries the query's limit and the plan is exact: a range
 *    holds only names at or after the start, its first `limit` rows are
 *    the bucket's first by name, and the client merges the N streams and
 *    keeps the first `limit` (Phoenix's salting scans every bucket, "an
 *    'or' of each possible bucket value" in the scan's start and stop,
 *    forcedotcom/phoenix#74; key order across buckets is a merge of their
 *    streams). Otherwise (user1 then ts:str "17..." sorts after user11;
 *    a range from user11 holds user1's rows "user1" "5...") the ranges
 *    have no limit and the plan is inexact: the client reads each to its
 *    end, drops names before the start and keeps the first `limit`.
 *    A full scan has no limit either: its rows are in no name order.
 * plan.exact for a SCAN thus means: every row read is named at or after
 * the start, and the ranges' limits suffice (N ranges may read N * limit
 * rows, of which the client keeps `limit`).
 */
#include "workloads/keyscheme_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/keyscheme.h"
#include "workloads/record.h"

#define PLAN_MAX_CANDIDATES 65536u
#define PLAN_MAX_SLOTS 16         /* slots of N >= 2 each: 2^16 candidates */
#define PLAN_MAX_TIME 32          /* bytes of one time field: ts:str, at most 20 */

typedef struct planner {
    const keyscheme *ks;
    const keyencoder *ke;
    record rec;       /* the values the query gives (others zero); ts_ms set per time bound */
    uint16_t knows;   /* R_ bits: which values of rec the query gives */
    uint8_t *k;       /* the working key, ks->peak bytes */
} planner;

typedef struct bucket_slot {
    size_t at;        /* offset in the template */
    uint32_t n;       /* buckets, >= 2 */
    uint8_t width, text;
} bucket_slot;

typedef struct candidates {
    size_t len;       /* template bytes, k[0 .. len) */
    uint32_t count;   /* product of the slots' n */
    size_t nslots;
    bucket_slot slot[PLAN_MAX_SLOTS];
} candidates;

/* One range per candidate P: from P + lo_tail to P + hi_tail and then
 * either a 0 byte (the key right after it) or the first key past every
 * key that starts with P + hi_tail. */
typedef struct range_shape {
    const uint8_t *lo_tail, *hi_tail;
    size_t lo_tail_len, hi_tail_len;
    uint8_t hi_key_successor;   /* 1: + "\x00"; 0: successor of the prefix */
    uint8_t reverse;
    uint32_t limit;
} range_shape;

void plan_init(plan *p)
{
    memset(p, 0, sizeof *p);
}

void plan_release(plan *p)
{
    free(p->ranges);
    free(p->bytes);
    plan_init(p);
}

/* The record values (R_ bits) a query of this kind gives: a GET every
 * one (but never the RNG), a RANGE or LATEST the entity's (id, name, key,
 * metric, host, tag), a METRIC the metric and nothing else of its series,
 * a WINDOW none. */
static uint16_t query_knows(query_kind kind)
{
    switch (kind) {
    case QUERY_GET:    return R_TIME | R_SEQ | R_NAME;
    case QUERY_RANGE:
    case QUERY_LATEST:
    case QUERY_SCAN:   return R_NAME;  /* a SCAN uses it for its start only (plan_scan) */
    case QUERY_METRIC: return R_METRIC;
    case QUERY_WINDOW:
    case QUERY_KINDS:  break;
    }
    return 0;
}

/* What every row a query wants shares (R_ bits), which a key pins down
 * when a field before the time field writes it whole: a RANGE's or
 * LATEST's entity, a METRIC's metric; nothing for a WINDOW or a SCAN
 * (whose rows are of many names: plan_scan decides its exactness). */
static uint16_t query_pins(query_kind kind)
{
    switch (kind) {
    case QUERY_RANGE:
    case QUERY_LATEST: return R_ENTITY;
    case QUERY_METRIC: return R_METRIC;
    case QUERY_GET:
    case QUERY_WINDOW:
    case QUERY_SCAN:
    case QUERY_KINDS:  break;
    }
    return 0;
}

/* The query's record with only the values it gives: what the planner
 * evaluates can depend on nothing else. */
static record known_values(const record *r, uint16_t knows)
{
    record k = { .ts_ms = 0 };
    if (knows & R_TIME)
        k.ts_ms = r->ts_ms;
    if (knows & R_SEQ)
        k.seq = r->seq;
    if (knows & R_ENTITY)
        k.entity = r->entity;
    if (knows & R_METRIC)
        k.metric = r->metric;
    if (knows & R_HOST)
        k.host = r->host;
    if (knows & R_TAG)
        k.tag = r->tag;
    if (knows & R_KEY) { /* and how names are made: the naming, YCSB's padding */
        k.key = r->key;
        k.key_len = r->key_len;
        k.naming = r->naming;
        k.name_pad = r->name_pad;
    }
    return k;
}

/* An empty time range, or no rows asked for. */
static int query_wants_nothing(const query *q)
{
    if (q->kind == QUERY_LATEST || q->kind == QUERY_SCAN)
        return q->limit == 0;
    return q->kind != QUERY_GET && q->from_ms > q->to_ms;
}

/* Whether every name the query knows that the scheme looks up has a UID.
 * If one has none, nothing with that name was ever written: the encoder
 * assigns every UID a key needs when it writes the key. */
static int names_known(const planner *pl)
{
    const keyscheme *ks = pl->ks;
    for (size_t i = 0; i < ks->nfields; i++) {
        const field *f = &ks->fields[i];
        if (f->reads & ~pl->knows)
            continue; /* a name the query does not know: not looked up */
        if (f->def->op == OP_UID && !ks_uid_find(pl->ke, f->table, ks_uid_name_id(&pl->rec, f->table)))
            return 0;
        for (uint32_t t = 0; f->def->op == OP_TAGS && t < f->n; t++) {
            const struct tag_def *d = &ks_tag_defs[t];
            if (!ks_uid_find(pl->ke, NAME_TAGK, d->tagk)
                || !ks_uid_find(pl->ke, d->values, ks_uid_name_id(&pl->rec, d->values)))
                return 0;
        }
    }
    return 1;
}

/* put_tags without assigning: names_known has checked every UID. */
static size_t put_found_tags(const planner *pl, uint32_t count, uint8_t *out)
{
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        const struct tag_def *t = &ks_tag_defs[i];
        put_be(out + p, ks_uid_find(pl->ke, NAME_TAGK, t->tagk), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
        put_be(out + p, ks_uid_find(pl->ke, t->values, ks_uid_name_id(&pl->rec, t->values)), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
    }
    return p;
}
static int eval_seq(const planner *pl, size_t i, size_t end, size_t *p);

/* Writes the bytes of field i (not one that covers the rest of its list)
 * at k + *p and advances *p, as the encoder would, if the query knows
 * them; returns 0, writing nothing meaningful, if it does not. */
static int eval_field(const planner *pl, size_t i, size_t *p)
{
    const field *f = &pl->ks->fields[i];
    const field_def *d = f->def;
    assert(!(d->flags & F_COVERS_REST));
    if (f->reads & ~pl->knows)
        return 0;
    op o = op_of(f, f->text ? d->str_op : d->op, 0);
    uint8_t *k = pl->k;
    switch ((op_code)o.code) {
    case OP_MARK:
    case OP_RESERVE: {
        size_t at = *p;
        *p += o.code == OP_RESERVE ? f->width : 0;
        if (!eval_seq(pl, i + 1, i + f->span, p))
            return 0;
        o.code = d->end_op;
        *p = ks_end_transform(&o, k, at, *p);
        return 1;
    }
    case OP_UID:
        put_be(k + *p, ks_uid_find(pl->ke, f->table, ks_uid_name_id(&pl->rec, f->table)), f->width);
        *p += f->width;
        return 1;
    case OP_TAGS:
        *p += put_found_tags(pl, f->n, k + *p);
        return 1;
    default:
        *p += ks_put_value(pl->ks, &o, &pl->rec, k + *p);
        return 1;
    }
}

/* The bucket of psalt/osalt i: the Java hash of the fields after it in
 * its list (up to `end`), osalt leaving out the time fields among them,
 * each evaluated at k + scratch. 0 if the query does not know them. */
static int rest_bucket(const planner *pl, size_t i, size_t end, size_t scratch, uint32_t *bucket)
{
    const field *fs = pl->ks->fields;
    int skip_time = (fs[i].def->flags & F_SKIPS_TIME) != 0;
    uint32_t h = 1;
    for (size_t j = i + fs[i].span; j < end; j += fs[j].span) {
        const field *g = &fs[j];
        size_t q = scratch;
        if (skip_time && (g->def->flags & F_TIME))
            continue;
        if (g->def->flags & F_COVERS_REST) {
            uint32_t inner;
            if (!rest_bucket(pl, j, end, scratch + g->width, &inner))
                return 0;
            put_bucket(pl->k + scratch, inner, g->text, g->width);
            q += g->width;
        } else if (!eval_field(pl, j, &q)) {
            return 0;
        }
        h = ks_java_hash(h, pl->k + scratch, q - scratch);
    }
    *bucket = ks_java_bucket(h, fs[i].n);
    return 1;
}

/* Writes the bucket of bucket field i (salt, hash, psalt, osalt) at k + p
 * if the query knows it; 0 if not. */
static int bucket_known(const planner *pl, size_t i, size_t end, size_t p)
{
    const field *f = &pl->ks->fields[i];
    if (!(f->def->flags & F_COVERS_REST))
        return eval_field(pl, i, &p);
    uint32_t b;
    if (!rest_bucket(pl, i, end, p + f->width, &b))
        return 0;
    put_bucket(pl->k + p, b, f->text, f->width);
    return 1;
}

/* The sibling fields [i, end) at k + *p, as the encoder writes them; 0 if
 * the query does not know them all. */
static int eval_seq(const planner *pl, size_t i, size_t end, size_t *p)
{
    const field *fs = pl->ks->fields;
    for (; i < end; i += fs[i].span) {
        if (fs[i].def->flags & F_COVERS_REST) {
            if (!bucket_known(pl, i, end, *p))
                return 0;
            *p += fs[i].width;
        } else if (!eval_field(pl, i, p)) {
            return 0;
        }
    }
    return 1;
}

/* Makes room for `more` bytes in p->bytes. */
static int plan_grow_bytes(plan *p, size_t more)
{
    if (p->nbytes + more <= p->bytes_cap)
        return 0;
    size_t cap = p->bytes_cap ? p->bytes_cap : 256;
    while (cap < p->nbytes + more)
        cap *= 2;
    uint8_t *b = realloc(p->bytes, cap);
    if (!b)
        return -1;
    p->bytes = b;
    p->bytes_cap = cap;
    return 0;
}

/* Appends an empty range; NULL if out of memory. */
static key_range *plan_push_range(plan *p)
{
    if (p->nranges == p->ranges_cap) {
        size_t cap = p->ranges_cap ? 2 * p->ranges_cap : 8;
        key_range *r = realloc(p->ranges, cap * sizeof *r);
        if (!r)
            return NULL;
        p->ranges = r;
        p->ranges_cap = cap;
    }
    key_range *r = &p->ranges[p->nranges++];
    memset(r, 0, sizeof *r);
    return r;
}

/* Appends a + b to p->bytes (room made by the caller); returns the offset. */
static size_t plan_put(plan *p, const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t off = p->nbytes;
    if (alen)
        memcpy(p->bytes + off, a, alen);
    if (blen)
        memcpy(p->bytes + off + alen, b, blen);
    p->nbytes += alen + blen;
    return off;
}

/* The first key after every key that starts with b[0 .. *len): the last
 * byte below 0xFF incremented, the bytes after it dropped. All 0xFF (or
 * empty): no such key, *len = 0 (unbounded). */
static void prefix_successor(uint8_t *b, size_t *len)
{
    size_t n = *len;
    while (n > 0 && b[n - 1] == 0xFF)
        n--;
    if (n > 0)
        b[n - 1]++;
    *len = n;
}

/* The range of one candidate whose bytes are prefix[0 .. len). */
static int plan_candidate_range(plan *out, const uint8_t *prefix, size_t len, const range_shape *s)
{
    if (plan_grow_bytes(out, 2 * len + s->lo_tail_len + s->hi_tail_len + 1) < 0)
        return -1;
    key_range *r = plan_push_range(out);
    if (!r)
        return -1;
    r->lo_len = len + s->lo_tail_len;
    r->lo_off = plan_put(out, prefix, len, s->lo_tail, s->lo_tail_len);
    r->hi_len = len + s->hi_tail_len;
    r->hi_off = plan_put(out, prefix, len, s->hi_tail, s->hi_tail_len);
    if (s->hi_key_successor) {
        out->bytes[out->nbytes++] = 0;
        r->hi_len++;
    } else {
        prefix_successor(out->bytes + r->hi_off, &r->hi_len);
        out->nbytes = r->hi_off + r->hi_len;
    }
    r->limit = s->limit;
    r->reverse = s->reverse;
    return 0;
}

/* Fills the slots of the template with the buckets of candidate c. */
static void set_candidate(uint8_t *k, const candidates *cs, uint32_t c)
{
    for (size_t s = cs->nslots; s-- > 0; c /= cs->slot[s].n) {
        const bucket_slot *b = &cs->slot[s];
        put_bucket(k + b->at, c % b->n, b->text, b->width);
    }
}

/* One range of shape s per candidate, in key order. */
static int plan_each_candidate(const planner *pl, const candidates *cs, const range_shape *s, plan *out)
{
    for (uint32_t c = 0; c < cs->count; c++) {
        set_candidate(pl->k, cs, c);
        if (plan_candidate_range(out, pl->k, cs->len, s) < 0)
            return -1;
    }
    return 0;
}

static int plan_full_scan(plan *out)
{
    out->full_scan = 1;
    out->exact = 0; /* every row is read; the wanted ones are filtered out */
    return plan_push_range(out) ? 0 : -1;
}

/* Bucket field f, at the end of the template in k, is unknown to the
 * query: the candidates take each of its N values. 0 if that would make
 * too many. */
static int add_slot(candidates *cs, const field *f, uint8_t *k)
{
    if (f->n == 1) { /* one bucket, always 0: known after all */
        put_bucket(k + cs->len, 0, f->text, f->width);
        return 1;
    }
    if ((uint64_t)cs->count * f->n > PLAN_MAX_CANDIDATES)
        return 0;
    assert(cs->nslots < PLAN_MAX_SLOTS);
    bucket_slot b = { cs->len, f->n, (uint8_t)f->width, f->text };
    cs->slot[cs->nslots++] = b;
    cs->count *= f->n;
    return 1;
}

/* Time field i's bytes for time t at k + at, into out; returns the length. */
static size_t time_bytes(planner *pl, size_t i, uint64_t t, size_t at, uint8_t *out)
{
    uint16_t knows = pl->knows;
    size_t p = at;
    pl->rec.ts_ms = t;
    pl->knows |= R_TIME;
    int known = eval_field(pl, i, &p);
    assert(known && p - at <= PLAN_MAX_TIME);
    (void)known;
    pl->knows = knows;
    memcpy(out, pl->k + at, p - at);
    return p - at;
}

/* Whether time field i keeps every time outside [from, to] out of the
 * range between their bytes: t's bytes are monotonic in t, so it does
 * when from - 1 and from, and to and to + 1, have different bytes. Not so
 * for hour(ts) unless from starts an hour and to ends one: a row's hour
 * holds the times around the bounds too. */
static int time_bounds_exact(planner *pl, const query *q, size_t i, size_t at)
{
    uint8_t a[PLAN_MAX_TIME], b[PLAN_MAX_TIME];
    size_t alen, blen;
    if (q->from_ms > 0) {
        alen = time_bytes(pl, i, q->from_ms - 1, at, a);
        blen = time_bytes(pl, i, q->from_ms, at, b);
        if (alen == blen && memcmp(a, b, alen) == 0)
            return 0;
    }
    if (q->to_ms < UINT64_MAX) {
        alen = time_bytes(pl, i, q->to_ms, at, a);
        blen = time_bytes(pl, i, q->to_ms + 1, at, b);
        if (alen == blen && memcmp(a, b, alen) == 0)
            return 0;
    }
    return 1;
}

/* Whether the bytes of the subtree at i are the same in every row the
 * query wants: it reads only values the query gives, or it is a bucket of
 * 1 (always bucket 0). A field that covers the rest of its list (psalt,
 * osalt) hashes what follows it there: inside a transform those fields are
 * in the subtree; at the top level the caller checks them (top_rest_known). */
static int subtree_known(const planner *pl, size_t i)
{
    const field *fs = pl->ks->fields;
    for (size_t j = i; j < i + fs[i].span; j++) {
        if ((fs[j].def->flags & F_BUCKET_PREFIX) && fs[j].n == 1) {
            j += fs[j].span - 1;
            continue;
        }
        if (fs[j].reads & ~pl->knows)
            return 0;
    }
    return 1;
}

/* The same for top-level field i, counting the top-level fields a psalt or
 * osalt hashes (osalt leaves out the time fields). */
static int top_field_known(const planner *pl, size_t i)
{
    const field *fs = pl->ks->fields;
    if (!subtree_known(pl, i))
        return 0;
    if (!(fs[i].def->flags & F_COVERS_REST) || fs[i].n == 1)
        return 1;
    for (size_t j = i + fs[i].span; j < pl->ks->nfields; j += fs[j].span) {
        if ((fs[i].def->flags & F_SKIPS_TIME) && (fs[j].def->flags & F_TIME))
            continue;
        if (!top_field_known(pl, j))
            return 0;
    }
    return 1;
}

/* Whether the rows of one candidate that a LATEST wants sort by time from
 * top-level time field i on, so that `limit` rows scanned newest first are
 * its newest. A time field of one row per time (ts, revts, either form)
 * does. A coarse one, hour(ts), holds an hour in one row per value of the
 * fields after it: they keep the order if each is the same in every
 * wanted row (known to the query) until a finer ascending time field
 * (ts, ts:str) orders the rest; anything else (a salt, seq, revts, ...)
 * puts an hour's rows in another order, so the newest row of the hour
 * need not come first. */
static int rows_in_time_order(const planner *pl, size_t i)
{
    const field *fs = pl->ks->fields;
    if (fs[i].def->op != OP_HOUR)
        return 1;
    for (size_t j = i + fs[i].span; j < pl->ks->nfields; j += fs[j].span) {
        const field_def *d = fs[j].def;
        if ((d->flags & F_TIME) && !(d->flags & F_DESCENDING)) {
            if (d->op != OP_HOUR)
                return 1; /* finer: the rest of the hour in time order */
            continue;     /* the same hour again */
        }
        if (!top_field_known(pl, j))
            return 0;
    }
    return 1;
}

/* The query's time range reaches time field i (a top-level field) after
 * the candidates: it decides the rest of each range. LATEST takes every
 * row of each candidate, newest first: a reversed scan for ascending time,
 * a forward one for descending (revts), `limit` rows of each when the key
 * keeps the wanted rows in time order (rows_in_time_order); when it does
 * not, every row of the candidate, inexact. RANGE and WINDOW scan from the
 * first time's bytes to the last's: for revts the newest time is first.
 * An encoding that does not keep the order between the two (ts:str across
 * a change in its digit count) gets each candidate's whole prefix. A
 * range that holds times outside the query's (a whole prefix, whole
 * hours) makes the plan inexact. */
static int plan_time_range(planner *pl, const query *q, const candidates *cs, size_t i, plan *out)
{
    const field *f = &pl->ks->fields[i];
    int descending = (f->def->flags & F_DESCENDING) != 0;
    range_shape s = { .hi_key_successor = 0 };
    if (q->kind == QUERY_LATEST) {
        s.reverse = !descending;
        if (rows_in_time_order(pl, i))
            s.limit = q->limit;
        else
            out->exact = 0; /* every row of the entity: the client keeps the newest */
        return plan_each_candidate(pl, cs, &s, out);
    }
    uint8_t lo[PLAN_MAX_TIME], hi[PLAN_MAX_TIME];
    size_t lo_len = time_bytes(pl, i, descending ? q->to_ms : q->from_ms, cs->len, lo);
    size_t hi_len = time_bytes(pl, i, descending ? q->from_ms : q->to_ms, cs->len, hi);
    if (lo_len == hi_len && memcmp(lo, hi, lo_len) <= 0) {
        s.lo_tail = lo;
        s.lo_tail_len = lo_len;
        s.hi_tail = hi;
        s.hi_tail_len = hi_len;
        s.hi_key_successor = i + f->span == pl->ks->nfields;
        out->exact &= (uint8_t)time_bounds_exact(pl, q, i, cs->len);
    } else {
        out->exact = 0;
    }
    return plan_each_candidate(pl, cs, &s, out);
}

/* Every field is known for each candidate: each is one whole row key. A
 * time range without a time field in the key reads rows of every time. */
static int plan_rows(const planner *pl, const query *q, const candidates *cs, plan *out)
{
    range_shape s = { .hi_key_successor = 1, .limit = q->kind == QUERY_LATEST ? q->limit : 0 };
    return plan_each_candidate(pl, cs, &s, out);
}

/* Whether the subtree at i writes a whole value that reads `pin` (R_ENTITY:
 * the entity's id or name, the trace key, or its UID; R_METRIC: the
 * metric's UID): a key with one of these before the time field holds no
 * row of another entity (metric). A bucket of the value (hash) does not:
 * many values share a bucket; nor does a slice of a digest shorter than
 * the digest (md5(...)[s:e]: two values share a byte 1 time in 256); nor
 * does a UID once more names than its width holds have been written
 * (their low bytes repeat). */
static int field_pins(const keyscheme *ks, const keyencoder *ke, size_t i, uint16_t pin)
{
    for (size_t j = i; j < i + ks->fields[i].span; j++) {
        const field *f = &ks->fields[j];
        if ((f->def->flags & F_BUCKET_PREFIX) ||
            ((f->def->flags & F_SLICE) && f->aux - f->n < KS_MD5_BYTES)) {
            j += f->span - 1; /* skip the inputs of a value many inputs share */
            continue;
        }
        if ((f->reads & pin) && (f->def->op != OP_UID || ks_uid_unique(ke, f->table, f->width)))
            return 1;
    }
    return 0;
}

/* Exactness of a plan that reached time field `time_at` (nfields: none),
 * as far as the fields before it tell: a GET reads its row; a WINDOW
 * wants every entity; a RANGE or LATEST reads only its entity's rows, a
 * METRIC only its metric's, when the key pins that down before the time
 * field (query_pins). The time field may still make it inexact
 * (plan_time_range), and so does a time range on a key without one: its
 * rows hold every time. */
static uint8_t plan_is_exact(const keyscheme *ks, const keyencoder *ke, const query *q, size_t time_at)
{
    if (q->kind == QUERY_GET)
        return 1;
    uint16_t pin = query_pins(q->kind);
    int pinned = pin == 0;
    for (size_t i = 0; i < time_at && !pinned; i += ks->fields[i].span)
        pinned = field_pins(ks, ke, i, pin);
    return (uint8_t)(pinned && (time_at < ks->nfields || q->kind == QUERY_LATEST));
}

/* ------------------------------------------------------------------------
 * SCAN: YCSB's scan, the first `limit` rows by name from the record's name
 * on (the top of this file says what is exact and why).
 * ---------------------------------------------------------------------- */

/* The lowest byte of a name that is not a trace key: names are made of
 * letters, digits, '.' and '/' (record_name: metric.007/host0003,
 * user628..., user42, www.site00042.com, 0000000042; fnvhash64 is never
 * Long.MIN_VALUE, whose Math.abs would keep its '-', for a 32-bit id), so
 * '.' (0x2E) is the least. A byte below it after the name ends the name:
 * no name goes on with it. */
#define NAME_MIN_BYTE 0x2E

/* Digits of the number in a YCSB name: an id below 2^32 (ordered
 * inserts), fnvhash64 of one (hashed: Math.abs of a long, at most
 * Long.MAX_VALUE). Zero-padded to at least as many, every name of the
 * kind is as long as every other. */
#define YCSB_ORDERED_DIGITS 10
#define YCSB_HASHED_DIGITS 19

/* YCSB's zeropadding of the record's name (record.name_pad; 0 means 1). */
static unsigned name_pad(const record *rec)
{
    return rec->name_pad ? rec->name_pad : 1;
}

/* Whether field f writes the query's idea of a record's name in name
 * order: `key` writes the name itself (a trace key, else record_name);
 * entity:str writes record_name, which is the name unless the record is a
 * trace's (NAMING_KEY: the key's shell form, \x7F before 'a' where the raw
 * bytes put it after); entity writes the id in 4 big-endian bytes, in
 * name order only where a name is the id in a fixed number of digits:
 * NAMING_ID (10), YCSB's ordered names zero-padded to 10 digits or more
 * (user0000000042). Not otherwise: user9 sorts after user10 unpadded,
 * user + fnvhash64(id) does not follow the id, nor do metric.NNN/hostNNNN
 * past 9999 hosts or www/mail/api/blog. */
static int name_in_order(const field *f, const record *rec)
{
    int trace = rec->key != NULL || rec->naming == NAMING_KEY;
    switch ((op_code)(f->text ? f->def->str_op : f->def->op)) {
    case OP_KEY:    return 1;
    case OP_NAME:   return !trace;
    case OP_ENTITY: return !trace && (rec->naming == NAMING_ID ||
                                      (rec->naming == NAMING_USER_ORDERED &&
                                       name_pad(rec) >= YCSB_ORDERED_DIGITS));
    default:        return 0;
    }
}

/* Whether no name is a proper prefix of another: NAMING_ID's names are 10
 * digits, YCSB's are of one length when padded to as many digits as the
 * longest number; a domain name ends with its TLD right after the site
 * number's '.', so one cannot go on into another. Unpadded user names
 * (user1, user12), series past their zero padding (host1234, host12345)
 * and raw trace keys can. */
static int names_prefix_free(const record *rec)
{
    if (rec->key != NULL)
        return 0;
    switch ((record_naming)rec->naming) {
    case NAMING_ID:
    case NAMING_DOMAIN:       return 1;
    case NAMING_USER_ORDERED: return name_pad(rec) >= YCSB_ORDERED_DIGITS;
    case NAMING_USER:         return name_pad(rec) >= YCSB_HASHED_DIGITS;
    case NAMING_SERIES:
    case NAMING_SERIES_TAGGED:
    case NAMING_KEY:          break;
    }
    return 0;
}

/* Whether the rows from the name field i on sort by name, and those of
 * one name by the rest of their key: then the first `limit` rows of a
 * range from the name are the first `limit` by name. So they do when the
 * name ends the key (empty literals aside), when it is of fixed width
 * (entity) or no name extends another (names_prefix_free), or when a
 * literal right after it starts with a byte below every byte of a name
 * that is not a trace key (`entity:str # ts`: "user1#" before "user12").
 * Not otherwise: name "1" then ts:str "17..." sorts after name "11", and
 * a range from "1" holds rows of names before it ("1" then "5..."). */
static int rows_in_name_order(const keyscheme *ks, const record *rec, size_t i)
{
    const field *fs = ks->fields;
    size_t j = i + fs[i].span;
    while (j < ks->nfields && (fs[j].def->flags & F_LITERAL) && fs[j].width == 0)
        j += fs[j].span;
    if (j == ks->nfields)
        return 1;
    if ((fs[i].def->op == OP_ENTITY && !fs[i].text) || names_prefix_free(rec))
        return 1;
    return (fs[j].def->flags & F_LITERAL) && rec->key == NULL && rec->naming != NAMING_KEY &&
           ks->lits[fs[j].aux] < NAME_MIN_BYTE;
}

/* A SCAN: the fields before the name must be the same in every row
 * (literals and anything else that reads no record value, appended) or
 * buckets (each expanded to its N prefixes, even when the query could
 * compute the record's own: later names live in every bucket); the first
 * other field must write the name in name order (name_in_order). Each
 * candidate P then gives the range [P + name, the first key past every
 * key starting with P), limit `limit` (each bucket's first `limit` rows:
 * the client merges the N sorted streams and keeps the first `limit`) and
 * exact, when its rows sort by name (rows_in_name_order); when they do
 * not, no limit and inexact: the client reads to the end of P and keeps
 * the first `limit` by name. Anything else is a full scan. */
static int plan_scan(planner *pl, const query *q, plan *out)
{
    const keyscheme *ks = pl->ks;
    const field *fs = ks->fields;
    candidates cs = { .count = 1 };
    size_t i = 0;
    pl->knows = 0; /* before the name: only what every row shares */
    for (; i < ks->nfields; i += fs[i].span) {
        size_t p = cs.len;
        if (fs[i].def->flags & F_BUCKET_PREFIX) {
            if (!bucket_known(pl, i, ks->nfields, cs.len) && !add_slot(&cs, &fs[i], pl->k))
                return plan_full_scan(out);
            cs.len += fs[i].width;
        } else if (eval_field(pl, i, &p)) {
            cs.len = p;
        } else {
            break;
        }
    }
    if (i == ks->nfields || !name_in_order(&fs[i], &pl->rec))
        return plan_full_scan(out);
    pl->knows = R_NAME;
    size_t end = cs.len;
    int known = eval_field(pl, i, &end);
    assert(known);
    (void)known;
    range_shape s = { .lo_tail = pl->k + cs.len, .lo_tail_len = end - cs.len };
    if (rows_in_name_order(ks, &pl->rec, i))
        s.limit = q->limit;
    else
        out->exact = 0;
    return plan_each_candidate(pl, &cs, &s, out);
}

/* Whether the key's rows are OpenTSDB's hour rows: its first top-level
 * time field is hour(ts). */
static int hour_rows(const keyscheme *ks)
{
    size_t t = 0;
    while (t < ks->nfields && !(ks->fields[t].def->flags & F_TIME))
        t += ks->fields[t].span;
    return t < ks->nfields && ks->fields[t].def->op == OP_HOUR;
}

/* OpenTSDB's query of one series: a RANGE, f an osalt of N > 1 buckets,
 * on a key of hour rows (what OpenTSDB writes and reads); scanned per
 * bucket unless multi_get (top comment). */
static int opentsdb_series(const planner *pl, const query *q, const field *f)
{
    return q->kind == QUERY_RANGE && (f->def->flags & F_SKIPS_TIME) && f->n > 1 &&
           hour_rows(pl->ks);
}

/* MultiGetQuery's gets for a RANGE (top comment): one row per hour from
 * the start's hour to end_row_time inclusive, every field evaluated with
 * the hour as the time. Returns 0 (planned), 1 when the key has a field
 * the series' query cannot give (nothing planned), -1 if out of memory. */
static int plan_multi_get(planner *pl, const query *q, plan *out)
{
    const keyscheme *ks = pl->ks;
    uint64_t start_s = q->from_ms / 1000, end_s = q->to_ms / 1000 + 1;
    uint64_t first = start_s - start_s % 3600;          /* getScanStartTimeSeconds */
    uint64_t last = end_s + (3600 - end_s % 3600);      /* getScanEndTimeSeconds */
    uint16_t knows = pl->knows;
    pl->knows |= R_TIME;
    range_shape s = { .hi_key_successor = 1 };
    int rc = 0;
    for (uint64_t h = first; h <= last && rc == 0; h += 3600) {
        size_t p = 0;
        pl->rec.ts_ms = h * 1000;
        if (!eval_seq(pl, 0, ks->nfields, &p))
            rc = 1;
        else if (plan_candidate_range(out, pl->k, p, &s) < 0)
            rc = -1;
    }
    pl->knows = knows;
    if (rc == 1)
        out->nranges = out->nbytes = 0;
    out->exact = 0; /* whole hour rows: times around the bounds */
    return rc;
}

int keyscheme_opentsdb_salted(const keyscheme *ks)
{
    for (size_t i = 0; i < ks->nfields; i += ks->fields[i].span)
        if ((ks->fields[i].def->flags & F_SKIPS_TIME) && ks->fields[i].n > 1)
            return hour_rows(ks);
    return 0;
}

int keyencoder_plan(keyencoder *ke, const query *q, plan *out)
{
    const keyscheme *ks = ke->ks;
    out->full_scan = 0;
    out->exact = 1;
    out->nranges = 0;
    out->nbytes = 0;
    uint8_t k[KEYSCHEME_MAX_KEY];
    uint16_t knows = query_knows(q->kind);
    planner pl = { ks, ke, known_values(&q->rec, knows), knows, k };
    if (query_wants_nothing(q))
        return 0;
    if (q->kind == QUERY_SCAN) /* looks no UID up: a UID before the name is a full scan */
        return plan_scan(&pl, q, out);
    if (!names_known(&pl))
        return 0;

    const field *fs = ks->fields;
    for (size_t i = 0; q->multi_get && i < ks->nfields; i += fs[i].span) {
        int rc = opentsdb_series(&pl, q, &fs[i]) ? plan_multi_get(&pl, q, out) : 1;
        if (rc <= 0)
            return rc;
    }
    candidates cs = { .count = 1 };
    for (size_t i = 0; i < ks->nfields; i += fs[i].span) {
        const field *f = &fs[i];
        if ((f->def->flags & F_TIME) && !(pl.knows & R_TIME)) {
            out->exact = plan_is_exact(ks, ke, q, i);
            return plan_time_range(&pl, q, &cs, i, out);
        }
        if (f->def->flags & F_BUCKET_PREFIX) {
            if (opentsdb_series(&pl, q, f) ? !add_slot(&cs, f, k)
                                      : !bucket_known(&pl, i, ks->nfields, cs.len) &&
                                            !add_slot(&cs, f, k))
                return plan_full_scan(out);
            cs.len += f->width;
        } else if (!eval_field(&pl, i, &cs.len)) {
            return plan_full_scan(out);
        }
    }
    out->exact = plan_is_exact(ks, ke, q, ks->nfields);
    return plan_rows(&pl, q, &cs, out);
}
