/* YcsbRandomStream -- ycsb_tlr.tsv: the raw ThreadLocalRandom stream every
 * YCSB generator draws from (java.util.concurrent.ThreadLocalRandom.nextLong
 * and nextDouble of the JDK that runs this), so that C can reproduce whole
 * runs from a seed. Upstream called: the JDK only. */
package regionsim.reference;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

final class YcsbRandomStream {
    private static final long[] SEEDS = { 0, 1, 42, 12345, -1 };
    private static final int DRAWS = 10;

    private YcsbRandomStream() {
    }

    static void write(Path dir) {
        try (Tsv t = new Tsv(dir, "ycsb_tlr.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("ThreadLocalRandom.current() after Thread.threadLocalRandomSeed := seed. kind=long: i-th nextLong(); kind=double: i-th nextDouble() (fresh from the seed each kind)");
            t.comment("harness thread: Thread.currentThread().getId() = " + Thread.currentThread().getId()
                    + " (JDK 17 steps the seed by 0x9e3779b97f4a7c15 + 2*threadId per draw; nextLong = mixMurmur64(seed); nextDouble takes two steps: ((mix32(s1)>>>6)<<27 + (mix32(s2)>>>5)) * 2^-53, mix32(z): z = (z ^ (z>>>33)) * 0xff51afd7ed558ccdL; return (int)(((z ^ (z>>>33)) * 0xc4ceb9fe1a85ec53L) >>> 32); checked against these rows)");
            t.header("kind", "seed", "i", "value", "value_hex_or_bits");
            for (long seed : SEEDS) {
                Draws.setSeed(seed);
                for (int i = 0; i < DRAWS; i++) {
                    long l = ThreadLocalRandom.current().nextLong();
                    t.row("long", seed, i, l, Long.toHexString(l));
                }
                Draws.setSeed(seed);
                for (int i = 0; i < DRAWS; i++) {
                    double d = ThreadLocalRandom.current().nextDouble();
                    t.row("double", seed, i, d, Tsv.hex(d));
                }
            }
        }
    }
}
