/* YcsbHotspot -- ycsb_hotspot.tsv: YCSB's HotspotIntegerGenerator.
 *
 * Upstream called (site.ycsb:core): new HotspotIntegerGenerator(lb, ub,
 * hotset, hotopn), its nextValue() and its public getters for the columns;
 * the first case is the keychooser CoreWorkload.init builds for
 * requestdistribution=hotspot, recordcount=100000 (its defaults
 * hotspotdatafraction 0.2, hotspotopnfraction 0.8). The u1 and l2 each call
 * drew are recovered by Draws. */
package regionsim.reference;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

import site.ycsb.WorkloadException;
import site.ycsb.generator.HotspotIntegerGenerator;

final class YcsbHotspot {
    private static final int ROWS = 400;

    private YcsbHotspot() {
    }

    static void write(Path dir) throws WorkloadException {
        try (Tsv t = new Tsv(dir, "ycsb_hotspot.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("HotspotIntegerGenerator(lb, ub, hotsetfraction, hotopnfraction): u1 = nextDouble(), l2 = nextLong(); hotInterval = (int)(interval*hotset); hot if u1 < hotopn: lb + abs(l2) % hotInterval else lb + hotInterval + abs(l2) % coldInterval");
            t.comment("CoreWorkload defaults hotspotdatafraction=0.2 hotspotopnfraction=0.8, range insertstart..insertstart+insertcount-1 (the first case is CoreWorkload.init's keychooser for requestdistribution=hotspot recordcount=100000)");
            t.header("lb", "ub", "hotset", "hotopn", "seed", "i", "u1", "u1_hex", "l2", "output");
            YcsbWorkload w = new YcsbWorkload("requestdistribution", "hotspot", "recordcount", "100000");
            cases(t, (HotspotIntegerGenerator) w.keychooser(), 5000);
            cases(t, new HotspotIntegerGenerator(0, 99999, 0.01, 0.99), 5001);
            cases(t, new HotspotIntegerGenerator(1000, 1999, 0.5, 0.5), 5002);
        }
    }

    private static void cases(Tsv t, HotspotIntegerGenerator g, long seed) {
        Draws.setSeed(seed);
        for (int i = 0; i < ROWS; i++) {
            long before = Draws.seed();
            long out = g.nextValue();
            long after = Draws.seed();
            Draws.setSeed(before);
            double u1 = ThreadLocalRandom.current().nextDouble();
            long l2 = ThreadLocalRandom.current().nextLong();
            Draws.expectSeed(after, "HotspotIntegerGenerator.nextValue");
            t.row(g.getLowerBound(), g.getUpperBound(), g.getHotsetFraction(), g.getHotOpnFraction(), seed, i,
                  u1, Tsv.hex(u1), l2, out);
        }
    }
}
