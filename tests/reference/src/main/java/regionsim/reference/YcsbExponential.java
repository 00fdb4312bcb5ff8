/* YcsbExponential -- ycsb_exponential.tsv: YCSB's ExponentialGenerator.
 *
 * Upstream called (site.ycsb:core): new ExponentialGenerator(percentile,
 * range), its nextValue() and its private field gamma (by reflection); the
 * range of the two CoreWorkload cases is recordcount times
 * ExponentialGenerator.EXPONENTIAL_FRAC_DEFAULT, and the generator
 * CoreWorkload.init builds as its keychooser (requestdistribution=
 * exponential) must have the same gamma, or the run stops. keynum_if_last
 * is CoreWorkload.nextKeynum's keynum before its redraw (last - intValue()),
 * computed here: nextKeynum is package-private and reads the acknowledged
 * counter, so it is not called. The u each call drew is recovered by Draws. */
package regionsim.reference;

import java.nio.file.Path;

import site.ycsb.WorkloadException;
import site.ycsb.generator.ExponentialGenerator;

final class YcsbExponential {
    private static final int ROWS = 400;

    private YcsbExponential() {
    }

    private record Case(double percentile, double range, long last, long seed, String recordcount) {
    }

    static void write(Path dir) throws WorkloadException {
        double frac = Double.parseDouble(ExponentialGenerator.EXPONENTIAL_FRAC_DEFAULT);
        double pct = Double.parseDouble(ExponentialGenerator.EXPONENTIAL_PERCENTILE_DEFAULT);
        Case[] cases = {
            new Case(pct, 100000 * frac, 99999, 6000, "100000"),
            new Case(pct, 1000 * frac, 999, 6001, "1000"),
            new Case(90, 100, 99, 6002, null),
        };
        try (Tsv t = new Tsv(dir, "ycsb_exponential.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("ExponentialGenerator(percentile, range) gamma = -log(1 - percentile/100)/range; value = -log(u)/gamma; CoreWorkload: percentile=95 (exponential.percentile), range = recordcount * 0.8571428571 (exponential.frac)");
            t.comment("CoreWorkload.nextKeynum with exponential: keynum = transactioninsertkeysequence.lastValue() - value.intValue(), redrawn while keynum < 0; keynum_if_last column uses lastValue = recordcount-1 (no redraw applied: may be negative)");
            t.header("gamma", "percentile", "range", "range_hex", "gamma", "gamma_hex   (gamma read from the private field)");
            for (Case c : cases) {
                double gamma = gamma(new ExponentialGenerator(c.percentile, c.range));
                if (c.recordcount != null) {
                    YcsbWorkload w = new YcsbWorkload("requestdistribution", "exponential", "recordcount", c.recordcount);
                    if (gamma(w.keychooser()) != gamma)
                        throw new IllegalStateException("CoreWorkload's exponential keychooser has another gamma");
                }
                t.row("gamma", c.percentile, c.range, Tsv.hex(c.range), gamma, Tsv.hex(gamma));
            }
            t.header("draw", "percentile", "range_hex", "last", "seed", "i", "u", "u_hex", "value", "value_hex", "intvalue", "keynum_if_last");
            for (Case c : cases) {
                ExponentialGenerator g = new ExponentialGenerator(c.percentile, c.range);
                Draws.setSeed(c.seed);
                for (int i = 0; i < ROWS; i++) {
                    long before = Draws.seed();
                    double value = g.nextValue();
                    long after = Draws.seed();
                    double u = Draws.replayDouble(before, after, "ExponentialGenerator.nextValue");
                    int intvalue = Double.valueOf(value).intValue();
                    t.row("draw", c.percentile, Tsv.hex(c.range), c.last, c.seed, i, u, Tsv.hex(u), value,
                          Tsv.hex(value), intvalue, c.last - intvalue);
                }
            }
        }
    }

    private static double gamma(Object g) {
        return (Double) Reflect.field(g, ExponentialGenerator.class, "gamma");
    }
}
