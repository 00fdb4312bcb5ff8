/* YcsbZipfian -- ycsb_zipfian.tsv: YCSB's Zipfian generator.
 *
 * Upstream called (site.ycsb:core): site.ycsb.generator.ZipfianGenerator:
 * the constructor ZipfianGenerator(min, max, theta); the package-private
 * static zetastatic(long n, double theta) and nextLong(long itemcount)
 * (nextValue() calls the latter with itemcount = items; we call it with
 * other itemcounts, as SkewedLatestGenerator does), by reflection; and the
 * private fields zetan, eta, alpha, zeta2theta, countforzeta, read by
 * reflection. The u each call drew is recovered by Draws. */
package regionsim.reference;

import java.nio.file.Path;

import site.ycsb.generator.ZipfianGenerator;

final class YcsbZipfian {
    private static final long[] ZETA_N = { 1, 2, 10, 1000, 100000, 10000000 };
    private static final long[] STATE_ITEMS = { 2, 10, 1000, 100000 };
    private static final double[] THETAS = { 0.99, 0.5 };

    private YcsbZipfian() {
    }

    private static double zetastatic(long n, double theta) {
        return (Double) Reflect.call(null, ZipfianGenerator.class, "zetastatic",
                new Class<?>[] { long.class, double.class }, n, theta);
    }

    private static long nextLong(ZipfianGenerator g, long itemcount) {
        return (Long) Reflect.call(g, ZipfianGenerator.class, "nextLong", new Class<?>[] { long.class }, itemcount);
    }

    private static double dfield(ZipfianGenerator g, String name) {
        return (Double) Reflect.field(g, ZipfianGenerator.class, name);
    }

    static void write(Path dir) {
        try (Tsv t = new Tsv(dir, "ycsb_zipfian.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("zeta rows: ZipfianGenerator.zetastatic(n, theta)");
            t.header("zeta", "n", "theta", "zeta", "zeta_hex");
            for (double theta : THETAS)
                for (long n : ZETA_N) {
                    double z = zetastatic(n, theta);
                    t.row("zeta", n, theta, z, Tsv.hex(z));
                }
            t.comment("state rows: fields of new ZipfianGenerator(0, items-1, theta) read by reflection (zetan, eta, alpha, zeta2theta)");
            t.header("state", "items", "theta", "zetan", "zetan_hex", "eta", "eta_hex", "alpha", "alpha_hex", "zeta2theta", "zeta2theta_hex");
            for (double theta : THETAS)
                for (long items : STATE_ITEMS) {
                    ZipfianGenerator g = new ZipfianGenerator(0, items - 1, theta);
                    double[] v = { dfield(g, "zetan"), dfield(g, "eta"), dfield(g, "alpha"), dfield(g, "zeta2theta") };
                    t.row("state", items, theta, v[0], Tsv.hex(v[0]), v[1], Tsv.hex(v[1]), v[2], Tsv.hex(v[2]), v[3], Tsv.hex(v[3]));
                }
            t.comment("next rows: one generator per block (block id), new ZipfianGenerator(0, items-1, theta); rows IN ORDER: nextLong(itemcount) fed the u it drew (u = ThreadLocalRandom nextDouble, seed set after construction);");
            t.comment("zetan_after/countforzeta_after = the generator's state after the call (itemcount growth recomputes zeta incrementally; a smaller itemcount does not, allowitemcountdecrease=false by default and has no setter)");
            t.header("next", "block", "items", "theta", "itemcount", "u", "u_hex", "output", "zetan_after_hex", "eta_after_hex", "countforzeta_after");
            block(t, 0, 100000, 0.99, 1000, repeat(100000, 300));
            block(t, 1, 100000, 0.5, 1001, repeat(100000, 300));
            long[] steps = { 100000, 100001, 100500, 101000, 120000, 150000, 150000, 120000, 100000, 200000 };
            long[] growing = new long[steps.length * 25];
            for (int i = 0; i < growing.length; i++)
                growing[i] = steps[i / 25];
            block(t, 2, 100000, 0.99, 2002, growing);
            block(t, 3, 10, 0.99, 2003, repeat(10, 100));
        }
    }

    private static long[] repeat(long v, int n) {
        long[] a = new long[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    private static void block(Tsv t, int id, long items, double theta, long seed, long[] itemcounts) {
        ZipfianGenerator g = new ZipfianGenerator(0, items - 1, theta);
        Draws.setSeed(seed);
        for (long itemcount : itemcounts) {
            long before = Draws.seed();
            long out = nextLong(g, itemcount);
            long after = Draws.seed();
            double u = Draws.replayDouble(before, after, "ZipfianGenerator.nextLong");
            t.row("next", id, items, theta, itemcount, u, Tsv.hex(u), out, Tsv.hex(dfield(g, "zetan")),
                  Tsv.hex(dfield(g, "eta")), Reflect.field(g, ZipfianGenerator.class, "countforzeta"));
        }
    }
}
