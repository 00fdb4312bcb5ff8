/* key.h -- byte-string row keys.
 *
 * A row key is a string of bytes compared as unsigned bytes, shorter first
 * on a common prefix: HBase's Bytes.compareTo. A keyref is a borrowed view
 * (pointer + length); who owns the bytes is the caller's business. The empty
 * key is not a valid row key (HBase rejects a Put with a zero-length row);
 * as a region boundary it means "unbounded".
 *
 * Keys are printed the way the HBase shell prints them (Bytes.toStringBinary):
 * bytes ' '..'~' except '\' as themselves, every other byte as \xNN with
 * upper-case hex. key_parse reads that form back (Bytes.toBytesBinary), and
 * accepts lower-case hex too.
 */
#ifndef REGIONSIM_KEY_H
#define REGIONSIM_KEY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* HBase's limit on row length (HConstants.MAX_ROW_LENGTH = Short.MAX_VALUE). */
#define KEY_MAX_LEN 32767

typedef struct keyref {
    const uint8_t *data;
    size_t len;
} keyref;

/* A keyref over len bytes at p (p may be NULL when len is 0). */
static inline keyref keyref_of(const void *p, size_t len)
{
    keyref k = { (const uint8_t *)p, len };
    return k;
}

/* The 8 bytes at p as a big-endian integer: integer order is their
 * unsigned byte order. */
static inline uint64_t key_be64(const uint8_t *p)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__)
    uint64_t w;
    memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return w;
#else
    return __builtin_bswap64(w);
#endif
#else
    uint64_t w = 0;
    for (int i = 0; i < 8; i++)
        w = w << 8 | p[i];
    return w;
#endif
}

/* <0, 0, >0 as a sorts before, equal to, after b in unsigned byte order.
 * Inline, as routing and the stores compare on every write: keys of 8
 * bytes or more first compare their first 8 as one integer. */
static inline int key_compare(keyref a, keyref b)
{
    size_t n = a.len < b.len ? a.len : b.len;
    int c = 0;
    if (n >= 8) {
        uint64_t x = key_be64(a.data), y = key_be64(b.data);
        if (x != y)
            return x < y ? -1 : 1;
        c = n > 8 ? memcmp(a.data + 8, b.data + 8, n - 8) : 0;
    } else if (n) {
        c = memcmp(a.data, b.data, n); /* memcmp compares unsigned */
    }
    if (c != 0)
        return c;
    return (a.len > b.len) - (a.len < b.len);
}

/* Bytes needed to print k in shell form, not counting a terminating NUL. */
size_t key_format_len(keyref k);

/* Prints k in shell form into out (cap bytes, always NUL-terminated when
 * cap > 0, truncated if short). Returns key_format_len(k), like snprintf. */
size_t key_format(keyref k, char *out, size_t cap);

/* 1 if s (NUL-terminated) is k in shell form, exactly what key_format
 * prints, else 0; without formatting k. */
int key_is_formatted(keyref k, const char *s);

/* Prints k in shell form into out without a terminating NUL, at most cap
 * bytes (cut short if longer). Returns the bytes written. */
size_t key_format_bytes(keyref k, char *out, size_t cap);

/* k in shell form as a malloc'd string ("" for the empty key), or NULL if
 * out of memory. Free with free(). */
char *key_format_alloc(keyref k);

/* Parses len chars of shell form at text into out (cap bytes). On success
 * returns 0 and sets *out_len. On failure returns -1 and sets *bad_col to the
 * 0-based column of the offending character: a '\' not followed by "xNN" with
 * two hex digits, or output longer than cap. */
int key_parse(const char *text, size_t len, uint8_t *out, size_t cap,
              size_t *out_len, size_t *bad_col);

/* A malloc'd copy of k's bytes (NULL for the empty key). Free with free(). */
uint8_t *key_copy(keyref k);

#endif
