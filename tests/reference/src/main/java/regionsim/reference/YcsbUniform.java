/* YcsbUniform -- ycsb_uniform.tsv: YCSB's UniformLongGenerator.
 *
 * Upstream called (site.ycsb:core): UniformLongGenerator.nextValue() of the
 * generators CoreWorkload.init builds (YcsbWorkload): the keychooser for
 * requestdistribution=uniform (recordcount 100000; and insertstart 50000,
 * insertcount 50000), the fieldchooser (fieldcount 10) and scanlength
 * (defaults 1..1000); and CoreWorkload.getFieldLengthGenerator for
 * fieldlengthdistribution=uniform, fieldlength=100. lb and ub are read back
 * from the generator's private fields. The l each call drew is recovered by
 * Draws. */
package regionsim.reference;

import java.nio.file.Path;

import site.ycsb.WorkloadException;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.UniformLongGenerator;

final class YcsbUniform {
    private static final int ROWS = 300;

    private YcsbUniform() {
    }

    static void write(Path dir) throws WorkloadException {
        YcsbWorkload w = new YcsbWorkload("requestdistribution", "uniform", "recordcount", "100000");
        YcsbWorkload half = new YcsbWorkload("requestdistribution", "uniform", "recordcount", "100000",
                                             "insertstart", "50000", "insertcount", "50000");
        try (Tsv t = new Tsv(dir, "ycsb_uniform.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("UniformLongGenerator(lb, ub): l = ThreadLocalRandom nextLong(); output = Math.abs(l) % (ub-lb+1) + lb (Math.abs(Long.MIN_VALUE) stays negative)");
            t.comment("cases: keychooser uniform (0, 99999), fieldchooser (0, fieldcount-1=9), scanlength (minscanlength 1, maxscanlength 1000), fieldlength uniform (1, 100), (50000, 99999): each the generator CoreWorkload.init (or getFieldLengthGenerator) builds");
            t.header("lb", "ub", "seed", "i", "l", "output");
            cases(t, w.keychooser(), 7000);
            cases(t, w.fieldchooser(), 7001);
            cases(t, w.scanlength(), 7002);
            cases(t, YcsbWorkload.fieldLengthGenerator("fieldlengthdistribution", "uniform", "fieldlength", "100"), 7003);
            cases(t, half.keychooser(), 7004);
        }
    }

    private static void cases(Tsv t, NumberGenerator chooser, long seed) {
        UniformLongGenerator g = (UniformLongGenerator) chooser;
        Object lb = Reflect.field(g, UniformLongGenerator.class, "lb");
        Object ub = Reflect.field(g, UniformLongGenerator.class, "ub");
        Draws.setSeed(seed);
        for (int i = 0; i < ROWS; i++) {
            long before = Draws.seed();
            long out = g.nextValue();
            long after = Draws.seed();
            long l = Draws.replayLong(before, after, "UniformLongGenerator.nextValue");
            t.row(lb, ub, seed, i, l, out);
        }
    }
}
