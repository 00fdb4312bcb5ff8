/* text.h -- text forms that the program (messages) and reports/ (reports) both
 * print, and link nothing of each other's to share: so they live here,
 * below both, as a header with nothing to link.
 *
 * escape_text: user text made safe to print on a terminal. Text the
 * program did not write itself (a scenario's name, a path, a
 * value read from a plan's file, an argument) may hold control bytes: ESC
 * sequences that move the cursor or recolour the screen, a bell, a
 * carriage return that hides what came before. Every message and every
 * text report prints such text through escape_text, which writes each
 * control byte as \xNN.
 *
 * size_text: a byte count in the largest binary unit that holds it
 * exactly, as sizes are written in scenario files and options (10GiB,
 * 1536KiB, 100B): what scenario/units.h's units_parse_size reads back.
 */
#ifndef REGIONSIM_TEXT_H
#define REGIONSIM_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* How many characters escape_text writes for byte c. */
static inline size_t escape_width(unsigned char c)
{
    return c < 0x20 || c == 0x7f ? 4 : 1;
}

/* s (NULL: "") with every control byte (below 0x20, and 0x7f) written as
 * \xNN, cut to at most `max` characters, ending in "..." when cut (never
 * inside an escape; without the dots when fewer than 3 characters fit),
 * so that a message stays short enough to keep its reason. Into out (cap
 * bytes, always NUL-terminated when cap > 0); returns out. */
static inline const char *escape_text(const char *s, size_t max, char *out, size_t cap)
{
    if (cap == 0)
        return out;
    const unsigned char *text = (const unsigned char *)(s ? s : "");
    size_t room = cap - 1 < max ? cap - 1 : max, n = 0, total = 0;
    if (room < 3)
        room = cap - 1; /* too small for "...": cut without it */
    for (const unsigned char *p = text; *p && total <= room; p++)
        total += escape_width(*p);
    int cut = total > room; /* then keep what fits with "..." after it */
    for (const unsigned char *p = text; *p; p++) {
        size_t w = escape_width(*p);
        if (cut && n + w + 3 > room) {
            size_t dots = room - n < 3 ? room - n : 3;
            memcpy(out + n, "...", dots);
            n += dots;
            break;
        }
        if (w == 4)
            snprintf(out + n, 5, "\\x%02X", *p);
        else
            out[n] = (char)*p;
        n += w;
    }
    out[n] = '\0';
    return out;
}

/* bytes as "NTiB", "NGiB", "NMiB" or "NKiB" in the largest unit that
 * divides it, else "NB" ("0B" for 0), into out (cap bytes); returns out. */
static inline const char *size_text(uint64_t bytes, char *out, size_t cap)
{
    static const char *const unit[] = { "TiB", "GiB", "MiB", "KiB" };
    for (int i = 0; i < 4; i++) {
        uint64_t scale = (uint64_t)1 << (10 * (4 - i));
        if (bytes && bytes % scale == 0) {
            snprintf(out, cap, "%llu%s", (unsigned long long)(bytes / scale), unit[i]);
            return out;
        }
    }
    snprintf(out, cap, "%lluB", (unsigned long long)bytes);
    return out;
}

#endif
