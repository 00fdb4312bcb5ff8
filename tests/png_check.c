/* png_check.c -- checks that a screenshot has the expected size and is not
 * blank, or that a box of it is drawn in few shades.
 *
 *   png_check FILE.png WIDTH HEIGHT [MIN_COLOURS [MIN_PERCENT]]
 *   png_check FILE.png --shades X Y W H MAX_SHADES
 *
 * Reads FILE.png with libpng's simplified API into 8-bit RGBA and checks
 * that it is WIDTH x HEIGHT pixels, that it has at least MIN_COLOURS
 * distinct colours (default 16) and that at least MIN_PERCENT per cent of
 * its pixels (default 2) differ from its most common colour, taken to be
 * the background. A blank page, a page of one colour or a page with a line
 * of text on it fails.
 *
 * --shades looks only at the box of W x H pixels whose top left corner is
 * (X, Y), shrunk by one pixel on each side (its edges blend with what is
 * around it), and counts the shades that cover at least 1% of it: a
 * heatmap of equal loads must be one shade however its cells are
 * antialiased. It fails when the box is not inside the picture or holds
 * more than MAX_SHADES such shades.
 *
 * Prints what it measured; exits 0 when every check passes, 1 when one
 * fails or the file cannot be read, 2 on a usage error.
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

/* Reads path into *px as one 32-bit RGBA value a pixel (malloc'd),
 * *w x *h of them. Returns 0, or 1 with a message. */
static int read_png(const char *path, uint32_t **px, size_t *w, size_t *h)
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) {
        fprintf(stderr, "png_check: %s: %s\n", path, image.message);
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t npix = (size_t)image.width * image.height;
    *w = image.width;
    *h = image.height;
    if (npix == 0 || npix > SIZE_MAX / 4 / sizeof(uint32_t)) {
        fprintf(stderr, "png_check: %s: unusable size\n", path);
        png_image_free(&image);
        return 1;
    }
    png_bytep buf = malloc(PNG_IMAGE_SIZE(image));
    *px = malloc(npix * sizeof **px);
    if (!buf || !*px) {
        fprintf(stderr, "png_check: out of memory\n");
        png_image_free(&image);
        free(buf);
        free(*px);
        return 1;
    }
    if (!png_image_finish_read(&image, NULL, buf, 0, NULL)) {
        fprintf(stderr, "png_check: %s: %s\n", path, image.message);
        png_image_free(&image);
        free(buf);
        free(*px);
        return 1;
    }
    for (size_t i = 0; i < npix; i++) {
        const png_byte *p = buf + 4 * i;
        (*px)[i] = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    }
    free(buf);
    return 0;
}

/* --shades: the shades covering at least 1% of a box. */
static int check_shades(int argc, char **argv)
{
    double x, y, bw, bh, max_shades;
    if (argc != 8 || parse_number(argv[3], 0, 1e6, &x) != 0 ||
        parse_number(argv[4], 0, 1e6, &y) != 0 || parse_number(argv[5], 3, 1e6, &bw) != 0 ||
        parse_number(argv[6], 3, 1e6, &bh) != 0 ||
        parse_number(argv[7], 1, 1e6, &max_shades) != 0) {
        fprintf(stderr, "usage: png_check FILE.png --shades X Y W H MAX_SHADES\n");
        return 2;
    }
    uint32_t *px;
    size_t w, h;
    if (read_png(argv[1], &px, &w, &h) != 0)
        return 1;
    size_t x0 = (size_t)x + 1, y0 = (size_t)y + 1;
    size_t x1 = (size_t)(x + bw) - 1, y1 = (size_t)(y + bh) - 1;
    if (x1 <= x0 || y1 <= y0 || x1 > w || y1 > h) {
        printf("png_check: FAIL: box %.0f,%.0f %.0fx%.0f is not inside the %zu x %zu picture\n",
               x, y, bw, bh, w, h);
        free(px);
        return 1;
    }
    size_t n = (x1 - x0) * (y1 - y0), k = 0;
    uint32_t *box = malloc(n * sizeof *box);
    if (!box) {
        fprintf(stderr, "png_check: out of memory\n");
        free(px);
        return 1;
    }
    for (size_t r = y0; r < y1; r++)
        for (size_t c = x0; c < x1; c++)
            box[k++] = px[r * w + c];
    free(px);
    qsort(box, n, sizeof *box, cmp_u32);
    size_t shades = 0;
    printf("png_check: %s: box %zu,%zu %zux%zu (%zu pixels); shades covering >= 1%%:",
           argv[1], x0, y0, x1 - x0, y1 - y0, n);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && box[j] == box[i])
            j++;
        if (100 * (j - i) >= n) {
            shades++;
            printf(" #%06lx (%.1f%%)", (unsigned long)(box[i] >> 8), 100.0 * (double)(j - i) / (double)n);
        }
        i = j;
    }
    free(box);
    printf("\n");
    if ((double)shades > max_shades || shades == 0) {
        printf("png_check: FAIL: %zu shades in the box, expected 1 to %.0f\n", shades, max_shades);
        return 1;
    }
    printf("png_check: ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[2], "--shades") == 0)
        return check_shades(argc, argv);
    double want_w, want_h, min_colours = 16, min_percent = 2;
    if (argc < 4 || argc > 6 ||
        parse_number(argv[2], 1, 1e6, &want_w) != 0 ||
        parse_number(argv[3], 1, 1e6, &want_h) != 0 ||
        (argc > 4 && parse_number(argv[4], 1, 1e9, &min_colours) != 0) ||
        (argc > 5 && parse_number(argv[5], 0, 100, &min_percent) != 0)) {
        fprintf(stderr, "usage: png_check FILE.png WIDTH HEIGHT [MIN_COLOURS [MIN_PERCENT]]\n"
                        "       png_check FILE.png --shades X Y W H MAX_SHADES\n");
        return 2;
    }
    const char *path = argv[1];
    uint32_t *px;
    size_t w, h;
    if (read_png(path, &px, &w, &h) != 0)
        return 1;
    size_t npix = w * h;
    printf("png_check: %s: %zu x %zu pixels (expected %.0f x %.0f)\n",
           path, w, h, want_w, want_h);
    /* Sort the pixels to count colours and find the most common one. */
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
