/* key.c -- unsigned byte order and the HBase shell's printable form.
 *
 * Both directions are small loops with no allocation; they sit on the
 * report path, not on the per-write path (routing calls key_compare only,
 * which is inline in key.h).
 */
#include "core/key.h"

#include <stdlib.h>
#include <string.h>

/* Bytes.toStringBinary prints a byte as itself iff ' ' <= b <= '~', b != '\'. */
static int key_byte_is_plain(uint8_t b)
{
    return b >= ' ' && b <= '~' && b != '\\';
}

size_t key_format_len(keyref k)
{
    size_t n = 0;
    for (size_t i = 0; i < k.len; i++)
        n += key_byte_is_plain(k.data[i]) ? 1 : 4;
    return n;
}

size_t key_format_bytes(keyref k, char *out, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (size_t i = 0; i < k.len; i++) {
        uint8_t b = k.data[i];
        char esc[4] = { '\\', 'x', hex[b >> 4], hex[b & 15] };
        const char *s = key_byte_is_plain(b) ? (const char *)&k.data[i] : esc;
        size_t w = key_byte_is_plain(b) ? 1 : 4;
        for (size_t j = 0; j < w && n < cap; j++)
            out[n++] = s[j];
    }
    return n;
}

char *key_format_alloc(keyref k)
{
    size_t n = key_format_len(k) + 1;
    char *p = malloc(n);
    if (p)
        key_format(k, p, n);
    return p;
}

int key_is_formatted(keyref k, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < k.len; i++) {
        uint8_t b = k.data[i];
        if (key_byte_is_plain(b)) {
            if ((uint8_t)*s++ != b)
                return 0;
        } else if (s[0] != '\\' || s[1] != 'x' || s[2] != hex[b >> 4] || s[3] != hex[b & 15]) {
            return 0;
        } else {
            s += 4;
        }
    }
    return *s == '\0';
}

size_t key_format(keyref k, char *out, size_t cap)
{
    if (cap)
        out[key_format_bytes(k, out, cap - 1)] = '\0';
    return key_format_len(k);
}

static int key_hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int key_parse(const char *text, size_t len, uint8_t *out, size_t cap,
              size_t *out_len, size_t *bad_col)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t b = (uint8_t)text[i];
        if (b == '\\') {
            /* An escape is exactly \xNN: four characters. */
            int h = i + 4 <= len && text[i + 1] == 'x' ? key_hex_digit(text[i + 2]) : -1;
            int l = h >= 0 ? key_hex_digit(text[i + 3]) : -1;
            if (l < 0) {
                *bad_col = i;
                return -1;
            }
            b = (uint8_t)(h << 4 | l);
            i += 3;
        }
        if (n >= cap) {
            *bad_col = i;
            return -1;
        }
        out[n++] = b;
    }
    *out_len = n;
    return 0;
}

uint8_t *key_copy(keyref k)
{
    if (k.len == 0)
        return NULL;
    uint8_t *p = malloc(k.len);
    if (p)
        memcpy(p, k.data, k.len);
    return p;
}
