/* png_check.c -- checks that a screenshot has the expected size and is not
 * blank.
 *
 *   png_check FILE.png WIDTH HEIGHT [MIN_COLOURS [MIN_PERCENT]]
 *
 * Reads FILE.png with libpng's simplified API into 8-bit RGBA and checks
 * that it is WIDTH x HEIGHT pixels, that it has at least MIN_COLOURS
 * distinct colours (default 16) and that at least MIN_PERCENT per cent of
 * its pixels (default 2) differ from its most common colour, taken to be
 * the background. A blank page, a page of one colour or a page with a line
 * of text on it fails. Prints what it measured; exits 0 when every check
 * passes, 1 when one fails or the file cannot be read, 2 on a usage error.
 */
#include <errno.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_number(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !(v >= min && v <= max))
        return -1;
    *out = v;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    double want_w, want_h, min_colours = 16, min_percent = 2;
    if (argc < 4 || argc > 6 ||
        parse_number(argv[2], 1, 1e6, &want_w) != 0 ||
        parse_number(argv[3], 1, 1e6, &want_h) != 0 ||
        (argc > 4 && parse_number(argv[4], 1, 1e9, &min_colours) != 0) ||
        (argc > 5 && parse_number(argv[5], 0, 100, &min_percent) != 0)) {
        fprintf(stderr, "usage: png_check FILE.png WIDTH HEIGHT [MIN_COLOURS [MIN_PERCENT]]\n");
        return 2;
    }
    const char *path = argv[1];

    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) {
        fprintf(stderr, "png_check: %s: %s\n", path, image.message);
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t w = image.width, h = image.height, npix = w * h;
    printf("png_check: %s: %zu x %zu pixels (expected %.0f x %.0f)\n",
           path, w, h, want_w, want_h);
    if (npix == 0 || npix > SIZE_MAX / 4 / sizeof(uint32_t)) {
        fprintf(stderr, "png_check: %s: unusable size\n", path);
        png_image_free(&image);
        return 1;
    }
    png_bytep buf = malloc(PNG_IMAGE_SIZE(image));
    uint32_t *px = malloc(npix * sizeof *px);
    if (!buf || !px) {
        fprintf(stderr, "png_check: out of memory\n");
        png_image_free(&image);
        free(buf);
        free(px);
        return 1;
    }
    if (!png_image_finish_read(&image, NULL, buf, 0, NULL)) {
        fprintf(stderr, "png_check: %s: %s\n", path, image.message);
        png_image_free(&image);
        free(buf);
        free(px);
        return 1;
    }

    /* Each pixel as one 32-bit RGBA value; sort a copy to count colours
     * and find the most common one. */
    for (size_t i = 0; i < npix; i++) {
        const png_byte *p = buf + 4 * i;
        px[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    }
    free(buf);
    qsort(px, npix, sizeof *px, cmp_u32);
    size_t colours = 0, best_run = 0;
    uint32_t background = px[0];
    for (size_t i = 0; i < npix;) {
        size_t j = i;
        while (j < npix && px[j] == px[i])
            j++;
        colours++;
        if (j - i > best_run) {
            best_run = j - i;
            background = px[i];
        }
        i = j;
    }
    free(px);
    double other = 100.0 * (double)(npix - best_run) / (double)npix;
    printf("png_check: %zu distinct colours (need >= %.0f); background #%06lx "
           "(alpha %lu) covers %.2f%%; %.2f%% of pixels differ from it (need >= %g%%)\n",
           colours, min_colours, (unsigned long)(background >> 8),
           (unsigned long)(background & 0xff), 100.0 - other, other, min_percent);

    int ok = 1;
    if ((double)w != want_w || (double)h != want_h) {
        printf("png_check: FAIL: size %zu x %zu, expected %.0f x %.0f\n", w, h, want_w, want_h);
        ok = 0;
    }
    if ((double)colours < min_colours) {
        printf("png_check: FAIL: only %zu distinct colours: the page looks blank\n", colours);
        ok = 0;
    }
    if (other < min_percent) {
        printf("png_check: FAIL: only %.2f%% of pixels differ from the background: "
               "the page looks blank\n", other);
        ok = 0;
    }
    printf("png_check: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
