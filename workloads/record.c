/* record.c -- entity names, rendered on demand.
 *
 * Names are pure functions of (naming style, id): the same id always gets
 * the same name, in every run and on every machine, so a scheme that reads
 * names (entity:str, revdomain(...)) is as deterministic as one that reads
 * ids. Digits are written by hand: this can sit on the per-write path.
 */
#include "workloads/record.h"

#include <assert.h>
#include <string.h>

#include "core/key.h"
#include "workloads/ycsb.h"

/* Appends s to out at *n, counting bytes that do not fit. */
static void put_text(char *out, size_t cap, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++, (*n)++)
        if (*n + 1 < cap)
            out[*n] = s[i];
}

/* Appends v in decimal, zero-padded to at least `width` digits. */
static void put_decimal(char *out, size_t cap, size_t *n, uint64_t v, int width)
{
    char digits[20];
    int d = 0;
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (d < width)
        digits[d++] = '0';
    for (int i = d - 1; i >= 0; i--)
        put_text(out, cap, n, &digits[i], 1);
}

/* A web host name for domain id: four host names per site over three TLDs,
 * so sites share TLDs and a site's hosts share a suffix: what reversing
 * the name (com.site00042.www) groups together. */
static void put_domain(char *out, size_t cap, size_t *n, uint32_t id)
{
    static const char *const host[] = { "www", "mail", "api", "blog" };
    static const char *const tld[] = { "com", "org", "net" };
    uint32_t site = id / 4;
    put_text(out, cap, n, host[id % 4], strlen(host[id % 4]));
    put_text(out, cap, n, ".site", 5);
    put_decimal(out, cap, n, site, 5);
    put_text(out, cap, n, ".", 1);
    put_text(out, cap, n, tld[site % 3], 3);
}

size_t record_name(const record *r, char *out, size_t cap)
{
    size_t n = 0;
    switch ((record_naming)r->naming) {
    case NAMING_SERIES:
    case NAMING_SERIES_TAGGED:
        /* metric.NNN/hostNNNN[/tagNN]: zero-padded to a minimum width and
         * growing beyond it, so distinct ids always give distinct names. */
        put_text(out, cap, &n, "metric.", 7);
        put_decimal(out, cap, &n, r->metric, 3);
        put_text(out, cap, &n, "/host", 5);
        put_decimal(out, cap, &n, r->host, 4);
        if (r->naming == NAMING_SERIES_TAGGED) {
            put_text(out, cap, &n, "/tag", 4);
            put_decimal(out, cap, &n, r->tag, 2);
        }
        break;
    case NAMING_USER:
    case NAMING_USER_ORDERED: {
        /* YCSB CoreWorkload.buildKeyName: "user" + Utils.fnvhash64(keynum)
         * (insertorder=hashed) or + keynum (ordered), zero-padded to
         * zeropadding digits (workloads/ycsb.c). */
        char name[4 + 255 + 21]; /* "user", up to 255 zeros of padding, a long */
        size_t len = ycsb_build_key_name(r->entity, r->name_pad ? r->name_pad : 1,
                                         r->naming == NAMING_USER_ORDERED, name, sizeof name);
        assert(len < sizeof name);
        put_text(out, cap, &n, name, len);
        break;
    }
    case NAMING_DOMAIN:
        put_domain(out, cap, &n, r->entity);
        break;
    case NAMING_ID:
        /* Fixed width (2^32 - 1 has 10 digits): text order = numeric order. */
        put_decimal(out, cap, &n, r->entity, 10);
        break;
    case NAMING_KEY:
        n = key_format(keyref_of(r->key, r->key_len), out, cap);
        return n;
    }
    if (cap)
        out[n < cap ? n : cap - 1] = '\0';
    return n;
}
