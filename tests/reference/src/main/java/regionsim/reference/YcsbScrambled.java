/* YcsbScrambled -- ycsb_scrambled.tsv: YCSB's ScrambledZipfianGenerator.
 *
 * Upstream called (site.ycsb:core): new ScrambledZipfianGenerator(min, max)
 * and its nextValue(); the inner value comes from a second generator like
 * its inner one, new ZipfianGenerator(0, ScrambledZipfianGenerator.ITEM_COUNT,
 * USED_ZIPFIAN_CONSTANT, ZETAN), fed the same seed (the inner generator's
 * lastValue() is not it: ZipfianGenerator.nextLong returns base and base+1
 * without setting lastValue); min and max are read back from the
 * generator's private fields. The three CoreWorkload cases take the
 * generator CoreWorkload.init(Properties) built as its keychooser
 * (YcsbWorkload), so the bounds are CoreWorkload's own. */
package regionsim.reference;

import java.nio.file.Path;

import site.ycsb.WorkloadException;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.ZipfianGenerator;

final class YcsbScrambled {
    private static final int ROWS = 500;

    private YcsbScrambled() {
    }

    static void write(Path dir) throws WorkloadException {
        try (Tsv t = new Tsv(dir, "ycsb_scrambled.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("new ScrambledZipfianGenerator(min, max) (theta 0.99 -> inner ZipfianGenerator(0, ITEM_COUNT=10^10, 0.99, ZETAN=26.46902820178302)); seed set after construction;");
            t.comment("inner = inner zipfian value drawn with u (computed by a second ZipfianGenerator(0, 10^10, 0.99, ZETAN) fed the same seed); output = min + fnvhash64(inner) % (max-min+1)");
            t.comment("cases: min=0,max=99999 (plain); the keychooser of CoreWorkload.init with requestdistribution=zipfian recordcount=100000 operationcount=200000 insertproportion=0 -> (0, 100000); insertproportion=0.05 -> expectednewkeys=(int)(200000*0.05*2.0)=20000 -> (0, 120000); insertstart=50000 insertcount=50000 -> (50000, 100000)");
            t.header("min", "max", "seed", "i", "u", "u_hex", "inner", "output");
            cases(t, new ScrambledZipfianGenerator(0, 99999), 3000);
            cases(t, zipfian("insertproportion", "0"), 3001);
            cases(t, zipfian("insertproportion", "0.05"), 3002);
            cases(t, zipfian("insertproportion", "0", "insertstart", "50000", "insertcount", "50000"), 3003);
        }
    }

    /* CoreWorkload's keychooser for requestdistribution=zipfian, recordcount
     * 100000, operationcount 200000 and the given properties. */
    private static NumberGenerator zipfian(String... more) throws WorkloadException {
        String[] kv = { "requestdistribution", "zipfian", "recordcount", "100000", "operationcount", "200000" };
        String[] all = java.util.Arrays.copyOf(kv, kv.length + more.length);
        System.arraycopy(more, 0, all, kv.length, more.length);
        return new YcsbWorkload(all).keychooser();
    }

    private static void cases(Tsv t, NumberGenerator chooser, long seed) {
        ScrambledZipfianGenerator g = (ScrambledZipfianGenerator) chooser;
        long min = (Long) Reflect.field(g, ScrambledZipfianGenerator.class, "min");
        long max = (Long) Reflect.field(g, ScrambledZipfianGenerator.class, "max");
        ZipfianGenerator inner = new ZipfianGenerator(0, ScrambledZipfianGenerator.ITEM_COUNT,
                ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT, ScrambledZipfianGenerator.ZETAN);
        Draws.setSeed(seed);
        for (int i = 0; i < ROWS; i++) {
            long before = Draws.seed();
            long out = g.nextValue();
            long after = Draws.seed();
            double u = Draws.replayDouble(before, after, "ScrambledZipfianGenerator.nextValue");
            Draws.setSeed(before);
            long innerValue = inner.nextValue();
            Draws.expectSeed(after, "the second inner ZipfianGenerator");
            t.row(min, max, seed, i, u, Tsv.hex(u), innerValue, out);
        }
    }
}
