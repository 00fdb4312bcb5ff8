/* escape.h -- user text made safe to print on a terminal.
 *
 * Text the program did not write itself (a scenario's name, a path, a
 * value read from a plan's file, an argument) may hold control bytes: ESC
 * sequences that move the cursor or recolour the screen, a bell, a
 * carriage return that hides what came before. Every message and every
 * text report prints such text through escape_text, which writes each
 * control byte as \xNN. It is one function for both sim/ (messages) and
 * reports/ (text reports), which link nothing of each other's: so it lives
 * here, below both, as a header of its own with nothing to link.
 */
#ifndef REGIONSIM_ESCAPE_H
#define REGIONSIM_ESCAPE_H

#include <stddef.h>
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

#endif
