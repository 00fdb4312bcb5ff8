/* keyscheme_encode.c -- compiling a parsed scheme and encoding records.
 *
 * The parse tree (field[], keyscheme.c) is compiled once into op[], a flat
 * array where a transform (hash, md5, reverse, revdomain) is a BEGIN op,
 * its inner fields' ops, and an END op. BEGIN remembers the output
 * position in a mark slot (one per nesting depth); END works on the bytes
 * since the mark: hash() and md5() replace them by the output they
 * reserved at BEGIN, reverse() and revdomain() rearrange them in place.
 * Fields whose bytes depend on LATER fields (psalt, osalt: F_COVERS_REST)
 * compile the same way, with the fields that follow them in their list
 * as their inner fields: BEGIN reserves the salt, the rest of the list
 * is written after it, END hashes those bytes and fills the salt in.
 * osalt leaves time fields out of its hash: each time field after it is
 * bracketed by SKIP ops that record where its bytes are (a numbered slot
 * per such field, fixed at compile time), and END hashes around them.
 * So encoding never allocates, never shifts bytes and never recurses:
 * one pass over ops writing straight into the caller's buffer. hash()
 * and md5() need their input bytes somewhere before they are discarded,
 * so a scheme has a `peak` (most bytes in use at once) next to max_len;
 * when the caller's buffer is smaller than the peak the encoder works in
 * a stack buffer and copies (never the case for the presets that do not
 * use md5: their peak is their max_len).
 *
 * The keyencoder is the per-run mutable state: the RNG behind salt(), the
 * OpenTSDB-style UID tables, and the mark and skip slots encoding uses.
 * A UID table maps a record's name id (metric, host, tag or entity
 * number) to its UID: an open-addressing hash table (linear probing,
 * Fibonacci hashing, at most half full) that grows with the names
 * actually written, not with the largest id: a scheme reading entity ids
 * up to 2^32 - 1 costs 16 to 32 bytes per name it met (uid_table in
 * keyscheme_impl.h).
 *
 * The writers of the fields that read the record and nothing else are
 * plain functions; the encoder's switch calls them directly and the read
 * planner (keyscheme_plan.c) reaches them through ks_put_value and
 * ks_end_transform, so a key the planner computes is byte for byte the
 * key the encoder wrote.
 */
#include "workloads/keyscheme_impl.h"

#include <assert.h>
#include <md5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/key.h"
#include "workloads/keyscheme.h"
#include "workloads/record.h"
#include "workloads/rng.h"

/* ------------------------------------------------------------------------
 * Compiling the field tree.
 * ---------------------------------------------------------------------- */

typedef struct compiler {
    const field *fs;
    op *ops;
    size_t n;
    uint32_t nskips;  /* skip slots handed out */
} compiler;

static void emit(compiler *c, const field *f, uint8_t code, unsigned depth)
{
    c->ops[c->n++] = op_of(f, code, depth);
}

static void compile_seq(compiler *c, size_t i, size_t end, unsigned depth, uint32_t *slot);

/* A field's own op; a transform's inner fields and END op after it. */
static void compile_field(compiler *c, size_t i, unsigned depth)
{
    const field *f = &c->fs[i];
    const field_def *d = f->def;
    emit(c, f, f->text ? d->str_op : d->op, depth);
    if (d->end_op != OP_NONE && !(d->flags & F_COVERS_REST)) {
        compile_seq(c, i + 1, i + f->span, depth + 1, NULL);
        emit(c, f, d->end_op, depth);
    }
}

/* The time fields among the sibling fields [i, end), the ones an osalt
 * before them leaves out of its hash (not those inside another field). */
static uint32_t count_time_siblings(const compiler *c, size_t i, size_t end)
{
    uint32_t n = 0;
    for (; i < end; i += c->fs[i].span)
        n += (c->fs[i].def->flags & F_TIME) != 0;
    return n;
}

/* The sibling fields [i, end). A field that covers the rest takes the
 * siblings after it as its inner fields. `slot`: NULL, or, when an osalt
 * earlier in this list is open, the next of the skip slots reserved for
 * this list's time fields; each time field here takes one, and its SKIP
 * ops record where its bytes are. An osalt reserves one block of slots for
 * the time fields of its own list, in key order, before compiling them, so
 * an osalt nested inside another field (which hashes its time fields like
 * any byte) takes slots outside the block and the outer osalt's [a, b)
 * never covers them (fuzz_keyscheme: 'osalt(5) hash(3, osalt(5) ts)'). */
static void compile_seq(compiler *c, size_t i, size_t end, unsigned depth, uint32_t *slot)
{
    for (; i < end; i += c->fs[i].span) {
        const field *f = &c->fs[i];
        uint32_t flags = f->def->flags;
        if (flags & F_COVERS_REST) {
            uint32_t block = 0, *cursor = slot;
            if ((flags & F_SKIPS_TIME) && !cursor) {
                block = c->nskips;
                c->nskips += count_time_siblings(c, i + f->span, end);
                cursor = &block;
            }
            uint32_t first = cursor ? *cursor : 0;
            compile_field(c, i, depth);
            compile_seq(c, i + f->span, end, depth + 1, cursor);
            emit(c, f, f->def->end_op, depth);
            if (flags & F_SKIPS_TIME) {
                c->ops[c->n - 1].a = first;
                c->ops[c->n - 1].b = *cursor;
            }
            return;
        }
        int timed = slot && (flags & F_TIME);
        if (timed) {
            emit(c, f, OP_SKIP_BEGIN, depth);
            c->ops[c->n - 1].a = *slot;
        }
        compile_field(c, i, depth);
        if (timed) {
            emit(c, f, OP_SKIP_END, depth);
            c->ops[c->n - 1].a = (*slot)++;
        }
    }
}

void ks_compile(keyscheme *ks)
{
    compiler c = { ks->fields, ks->ops, 0, 0 };
    compile_seq(&c, 0, ks->nfields, 0, NULL);
    ks->nops = c.n;
    ks->nskips = c.nskips;
}

/* ------------------------------------------------------------------------
 * Encoding.
 * ---------------------------------------------------------------------- */

/* The UID space of each name kind (see name_kind in keyscheme_impl.h). */
static const uint8_t space_of[NAME_KINDS] = { SPACE_METRIC, SPACE_TAGK, SPACE_TAGV, SPACE_TAGV, SPACE_ENTITY };

keyencoder *keyencoder_new(const keyscheme *ks, uint64_t seed)
{
    keyencoder *ke = calloc(1, sizeof *ke);
    if (!ke)
        return NULL;
    if ((ks->nskips && !(ke->skip = malloc(2 * ks->nskips * sizeof *ke->skip))) ||
        !(ke->scratch = malloc(ks->peak ? ks->peak : 1))) {
        free(ke->skip);
        free(ke);
        return NULL;
    }
    ke->ks = ks;
    rng_seed(&ke->rng, seed);
    return ke;
}

void keyencoder_free(keyencoder *ke)
{
    if (!ke)
        return;
    for (int t = 0; t < NAME_KINDS; t++)
        free(ke->names[t].slots);
    free(ke->skip);
    free(ke->scratch);
    free(ke);
}

/* The slot where name id's probe starts in a table of cap slots. */
static size_t uid_home(uint32_t id, size_t cap)
{
    return (size_t)((id * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* Puts {id, uid} into the first empty slot of its probe (id not there). */
static void uid_insert(uid_slot *slots, size_t cap, uint32_t id, uint32_t uid)
{
    size_t i = uid_home(id, cap);
    while (slots[i].uid != 0)
        i = (i + 1) & (cap - 1);
    slots[i].id = id;
    slots[i].uid = uid;
}

/* Doubles t's slots (64 at first) and rehashes. Returns 0, or -1 if out of
 * memory or too large (t is then unchanged). */
static int uid_grow(uid_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    if (cap > SIZE_MAX / sizeof(uid_slot))
        return -1;
    uid_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].uid != 0)
            uid_insert(slots, cap, t->slots[i].id, t->slots[i].uid);
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* The cold path of uid_get: a name seen for the first time. OpenTSDB
 * (src/uid/UniqueId.java, getOrCreateId) assigns by an atomic increment of
 * a counter that starts at 0, so UIDs are 1, 2, 3... in order of first use.
 * Out of memory here has no way back to the caller (an encode cannot fail),
 * so it ends the program with a message and exit status 2, as every other
 * out-of-memory does; the engine's memory budget (engine/budget.c) counts
 * these tables before a run starts, so this is the last resort. */
static uint32_t uid_assign(keyencoder *ke, unsigned kind, uint32_t id)
{
    uid_table *t = &ke->names[kind];
    if (2 * (t->count + 1) > t->cap && uid_grow(t) < 0) {
        fprintf(stderr, "regionsim: out of memory growing a UID table (%zu names)\n", t->count);
        exit(2);
    }
    uint32_t *last = &ke->last[space_of[kind]];
    assert(ks_uid_find(ke, kind, id) == 0 && *last < UINT32_MAX);
    uid_insert(t->slots, t->cap, id, ++*last);
    t->count++;
    return *last;
}

/* The UID of name `id` of a kind, 0 if none is assigned yet. Never assigns. */
uint32_t ks_uid_find(const keyencoder *ke, unsigned kind, uint32_t id)
{
    const uid_table *t = &ke->names[kind];
    if (t->cap == 0)
        return 0;
    for (size_t i = uid_home(id, t->cap);; i = (i + 1) & (t->cap - 1)) {
        const uid_slot *slot = &t->slots[i];
        if (slot->uid == 0 || slot->id == id)
            return slot->uid;
    }
}

int ks_uid_unique(const keyencoder *ke, unsigned kind, uint32_t width)
{
    return width >= 4 || ke->last[space_of[kind]] < UINT32_C(1) << (8 * width);
}

static uint32_t uid_get(keyencoder *ke, unsigned kind, uint32_t id)
{
    uint32_t uid = ks_uid_find(ke, kind, id);
    return uid ? uid : uid_assign(ke, kind, id);
}

/* The name id a UID table is keyed by, for this record. */
uint32_t ks_uid_name_id(const record *rec, unsigned kind)
{
    switch ((name_kind)kind) {
    case NAME_METRIC: return rec->metric;
    case NAME_HOST:   return rec->host;
    case NAME_TAGVAL: return rec->tag;
    case NAME_ENTITY: return rec->entity;
    case NAME_TAGK:
    case NAME_KINDS:  break;
    }
    return TAGK_HOST;
}

/* OpenTSDB's tag pairs (src/core/IncomingDataPoints.java rowKeyTemplate,
 * src/core/Tags.java resolveAll): [tagk UID][tagv UID] per tag, 3 bytes
 * each, sorted by tagk UID. Tag 1 is host=<host name>; tag 2 is
 * tag1=t<tag>. On the first record host's tagk is assigned before tag1's,
 * so host's UID is always the smaller: this order is OpenTSDB's. */
const tag_def ks_tag_defs[KS_MAX_TAGS] = { { TAGK_HOST, NAME_HOST }, { TAGK_TAG1, NAME_TAGVAL } };

static size_t put_tags(keyencoder *ke, const record *rec, uint32_t count, uint8_t *out)
{
    size_t p = 0;
    for (uint32_t i = 0; i < count; i++) {
        const struct tag_def *t = &ks_tag_defs[i];
        put_be(out + p, uid_get(ke, NAME_TAGK, t->tagk), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
        put_be(out + p, uid_get(ke, t->values, ks_uid_name_id(rec, t->values)), OPENTSDB_TAG_WIDTH);
        p += OPENTSDB_TAG_WIDTH;
    }
    return p;
}

/* Java's Arrays.hashCode(byte[]), which is also Apache Phoenix's
 * SaltingUtil.calculateHashCode: result = 31 * result + b for each byte,
 * b a signed Java byte, in int arithmetic wrapping modulo 2^32 (done here
 * in uint32_t, where wrapping is defined). Streams: hash a byte string in
 * pieces by passing the last result on; start from 1. */
uint32_t ks_java_hash(uint32_t h, const uint8_t *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = 31u * h + ((uint32_t)bytes[i] - ((bytes[i] & 0x80u) ? 0x100u : 0u));
    return h;
}

/* The bucket of Java hash h among n, as both Phoenix and OpenTSDB make it:
 *  - Phoenix, SaltingUtil.getSaltingByte (apache/phoenix master,
 *    phoenix-core/src/main/java/org/apache/phoenix/schema/SaltingUtil.java):
 *        (byte) Math.abs(hash % bucketNum)
 *  - OpenTSDB 2.2+, RowKey.prefixKeyWithSalt (src/core/RowKey.java):
 *        modulo = Arrays.hashCode(salt_base) % SALT_BUCKETS;
 *        if (modulo < 0) modulo = modulo * -1;
 * Java's % truncates, so both are |h| mod n, for every h including
 * Integer.MIN_VALUE: -2^31 % n = -(2^31 mod n), whose negation is in
 * range. Here |h| is taken as a uint32_t, where |-2^31| = 2^31 fits: the
 * same value. (Older Phoenix computed Math.abs(hash) % bucketNum, which
 * for MIN_VALUE gave a negative byte; the current formula does not.) */
uint32_t ks_java_bucket(uint32_t h, uint32_t n)
{
    uint32_t magnitude = (h & 0x80000000u) ? 0u - h : h;
    return magnitude % n;
}

/* osalt/psalt: the Java hash of the bytes [from, to), leaving out skip
 * slots [a, b) (osalt's time fields, each inside the range, in order). */
static uint32_t rest_hash(const keyencoder *ke, const uint8_t *k, size_t from, size_t to,
                          uint32_t a, uint32_t b)
{
    uint32_t h = 1;
    for (uint32_t s = a; s < b; s++) {
        h = ks_java_hash(h, k + from, ke->skip[2 * s] - from);
        from = ke->skip[2 * s + 1];
    }
    return ks_java_hash(h, k + from, to - from);
}

/* md5(): the digest of [from, to), its slice [start, end) written at out,
 * as bytes or as lowercase hex (2 characters a byte). RFC 1321 via libmd. */
static void put_md5(uint8_t *out, const uint8_t *in, size_t len, const op *o)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[MD5_DIGEST_LENGTH];
    MD5_CTX ctx;
    MD5Init(&ctx);
    MD5Update(&ctx, in, len);
    MD5Final(digest, &ctx);
    for (uint32_t i = o->n, j = 0; i < o->a; i++) {
        if (o->text) {
            out[j++] = (uint8_t)hex[digest[i] >> 4];
            out[j++] = (uint8_t)hex[digest[i] & 15];
        } else {
            out[j++] = digest[i];
        }
    }
}

/* v in decimal, zero-padded to at least min_digits; returns the length. */
static size_t put_dec(uint8_t *out, uint64_t v, size_t min_digits)
{
    uint8_t tmp[KS_U64_DIGITS];
    size_t n = 0;
    do {
        tmp[n++] = (uint8_t)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < min_digits)
        tmp[n++] = '0';
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

/* The HBase Reference Guide's reverse timestamp, Long.MAX_VALUE - ts. A ts
 * above Long.MAX_VALUE (no Java timestamp is) gives 0. */
static uint64_t reverse_ts(uint64_t ts_ms)
{
    return ts_ms > KS_INT64_MAX ? 0 : KS_INT64_MAX - ts_ms;
}

/* The entity's name (record_name), cut at KEYSCHEME_MAX_NAME bytes. A
 * trace key's name is its shell form, written straight into out; every
 * other name fits a small buffer (no large stack frame on the hot path). */
static size_t put_name(uint8_t *out, const record *rec)
{
    if (rec->naming == NAMING_KEY)
        return key_format_bytes(keyref_of(rec->key, rec->key_len), (char *)out,
                                KEYSCHEME_MAX_NAME);
    char buf[RECORD_NAME_MAX + 1];
    size_t n = record_name(rec, buf, sizeof buf);
    assert(n <= RECORD_NAME_MAX);
    memcpy(out, buf, n);
    return n;
}

/* The record's key as given, else its entity's name; at most
 * KEYSCHEME_MAX_NAME bytes. */
static size_t put_key(uint8_t *out, const record *rec)
{
    if (!rec->key)
        return put_name(out, rec);
    size_t n = rec->key_len < KEYSCHEME_MAX_NAME ? rec->key_len : KEYSCHEME_MAX_NAME;
    memcpy(out, rec->key, n);
    return n;
}

static void reverse_bytes(uint8_t *b, size_t len)
{
    for (size_t i = 0, j = len; i + 1 < j; i++, j--) {
        uint8_t t = b[i];
        b[i] = b[j - 1];
        b[j - 1] = t;
    }
}

/* www.example.com -> com.example.www, in place: reverse it all, then each
 * dot-separated component back. */
static void reverse_domain(uint8_t *b, size_t len)
{
    reverse_bytes(b, len);
    for (size_t start = 0, i = 0; i <= len; i++) {
        if (i == len || b[i] == '.') {
            reverse_bytes(b + start, i - start);
            start = i + 1;
        }
    }
}

/* The writers of the ops that read the record and nothing else (no RNG,
 * no UID table, no inner fields): each writes at out and returns the
 * length. The encoder's switch calls them directly; the planner reaches
 * them through put_value. */
static size_t put_ts(const record *rec, uint8_t *out)
{
    put_be(out, rec->ts_ms, 8);
    return 8;
}

static size_t put_ts_str(const record *rec, uint8_t *out)
{
    return put_dec(out, rec->ts_ms, KS_TS_STR_DIGITS);
}

static size_t put_revts(const record *rec, uint8_t *out)
{
    put_be(out, reverse_ts(rec->ts_ms), 8);
    return 8;
}

static size_t put_revts_str(const record *rec, uint8_t *out)
{
    return put_dec(out, reverse_ts(rec->ts_ms), KS_REVTS_DIGITS);
}

static size_t put_entity(const record *rec, uint8_t *out)
{
    put_be(out, rec->entity, 4);
    return 4;
}

static size_t put_seq(const record *rec, uint8_t *out)
{
    put_be(out, rec->seq, 8);
    return 8;
}

static size_t put_seq_str(const record *rec, uint8_t *out)
{
    return put_dec(out, rec->seq, KS_U64_DIGITS);
}

static size_t put_literal(const keyscheme *ks, const op *o, uint8_t *out)
{
    if (o->width) /* "" has no bytes, and maybe no pool */
        memcpy(out, ks->lits + o->a, o->width);
    return o->width;
}

/* OpenTSDB's base time: seconds rounded down to the hour, 4 bytes. */
static size_t put_hour(const record *rec, uint8_t *out)
{
    uint64_t s = rec->ts_ms / 1000;
    put_be(out, s - s % OPENTSDB_MAX_TIMESPAN, OPENTSDB_TIMESTAMP_BYTES);
    return OPENTSDB_TIMESTAMP_BYTES;
}

/* The END ops of transforms, their BEGIN at `at` and their inner bytes
 * ending at p; each returns the new end of the key. hash() and md5()
 * replace the inner bytes by the output reserved at `at`; reverse() and
 * revdomain() rearrange them in place. */
static size_t end_hash(const op *o, uint8_t *k, size_t at, size_t p)
{
    size_t in = at + o->width;
    put_bucket(k + at, ks_java_bucket(ks_java_hash(1, k + in, p - in), o->n), o->text, o->width);
    return in;
}

static size_t end_md5(const op *o, uint8_t *k, size_t at, size_t p)
{
    size_t in = at + o->width;
    put_md5(k + at, k + in, p - in, o);
    return in;
}

static size_t end_reverse(uint8_t *k, size_t at, size_t p)
{
    reverse_bytes(k + at, p - at);
    return p;
}

static size_t end_revdomain(uint8_t *k, size_t at, size_t p)
{
    reverse_domain(k + at, p - at);
    return p;
}

size_t keyencoder_encode(keyencoder *ke, const record *rec, uint8_t *out, size_t cap)
{
    const keyscheme *ks = ke->ks;
    assert(cap >= ks->max_len);
    uint8_t *k = cap >= ks->peak ? out : ke->scratch;
    size_t *mark = ke->mark;
    size_t p = 0;

    for (const op *o = ks->ops, *end = ks->ops + ks->nops; o < end; o++) {
        switch ((op_code)o->code) {
        case OP_TS:
            p += put_ts(rec, k + p);
            break;
        case OP_TS_STR:
            p += put_ts_str(rec, k + p);
            break;
        case OP_REVTS:
            p += put_revts(rec, k + p);
            break;
        case OP_REVTS_STR:
            p += put_revts_str(rec, k + p);
            break;
        case OP_ENTITY:
            p += put_entity(rec, k + p);
            break;
        case OP_NAME:
            p += put_name(k + p, rec);
            break;
        case OP_KEY:
            p += put_key(k + p, rec);
            break;
        case OP_SEQ:
            p += put_seq(rec, k + p);
            break;
        case OP_SEQ_STR:
            p += put_seq_str(rec, k + p);
            break;
        case OP_LITERAL:
            p += put_literal(ks, o, k + p);
            break;
        case OP_SALT:
            put_bucket(k + p, (uint32_t)rng_below(&ke->rng, o->n), o->text, o->width);
            p += o->width;
            break;
        case OP_MARK:
            mark[o->slot] = p;
            break;
        case OP_RESERVE:
            mark[o->slot] = p;
            p += o->width; /* the output goes here; inner bytes follow */
            break;
        case OP_HASH_END:
            p = end_hash(o, k, mark[o->slot], p);
            break;
        case OP_MD5_END:
            p = end_md5(o, k, mark[o->slot], p);
            break;
        case OP_REVERSE_END:
            p = end_reverse(k, mark[o->slot], p);
            break;
        case OP_REVDOMAIN_END:
            p = end_revdomain(k, mark[o->slot], p);
            break;
        case OP_REST_END: {
            size_t at = mark[o->slot];
            uint32_t h = rest_hash(ke, k, at + o->width, p, o->a, o->b);
            put_bucket(k + at, ks_java_bucket(h, o->n), o->text, o->width);
            break;
        }
        case OP_SKIP_BEGIN:
            ke->skip[2 * o->a] = p;
            break;
        case OP_SKIP_END:
            ke->skip[2 * o->a + 1] = p;
            break;
        case OP_UID:
            put_be(k + p, uid_get(ke, o->table, ks_uid_name_id(rec, o->table)), o->width);
            p += o->width;
            break;
        case OP_HOUR:
            p += put_hour(rec, k + p);
            break;
        case OP_TAGS:
            p += put_tags(ke, rec, o->n, k + p);
            break;
        case OP_NONE:
            assert(!"OP_NONE compiled");
            break;
        }
        assert(p <= ks->peak);
    }
    assert(p <= ks->max_len);
    if (k != out)
        memcpy(out, k, p);
    return p;
}

int keyscheme_is_pure(const keyscheme *ks)
{
    for (size_t i = 0; i < ks->nops; i++) {
        op_code code = (op_code)ks->ops[i].code;
        if (code == OP_SALT || code == OP_UID || code == OP_TAGS)
            return 0; /* the encoder's RNG, or its UID tables */
    }
    return 1;
}

/* The planner's way to the encoder's writers (keyscheme_impl.h). */
size_t ks_put_value(const keyscheme *ks, const op *o, const record *rec, uint8_t *out)
{
    switch ((op_code)o->code) {
    case OP_TS:        return put_ts(rec, out);
    case OP_TS_STR:    return put_ts_str(rec, out);
    case OP_REVTS:     return put_revts(rec, out);
    case OP_REVTS_STR: return put_revts_str(rec, out);
    case OP_ENTITY:    return put_entity(rec, out);
    case OP_NAME:      return put_name(out, rec);
    case OP_KEY:       return put_key(out, rec);
    case OP_SEQ:       return put_seq(rec, out);
    case OP_SEQ_STR:   return put_seq_str(rec, out);
    case OP_LITERAL:   return put_literal(ks, o, out);
    case OP_HOUR:      return put_hour(rec, out);
    default:           break;
    }
    assert(!"not a value op");
    return 0;
}

size_t ks_end_transform(const op *o, uint8_t *k, size_t at, size_t p)
{
    switch ((op_code)o->code) {
    case OP_HASH_END:      return end_hash(o, k, at, p);
    case OP_MD5_END:       return end_md5(o, k, at, p);
    case OP_REVERSE_END:   return end_reverse(k, at, p);
    case OP_REVDOMAIN_END: return end_revdomain(k, at, p);
    default:               break;
    }
    assert(!"not a transform's END op");
    return p;
}

