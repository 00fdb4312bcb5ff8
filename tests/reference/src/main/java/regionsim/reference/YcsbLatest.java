/* YcsbLatest -- ycsb_latest.tsv: YCSB's SkewedLatestGenerator.
 *
 * Upstream called (site.ycsb:core): new SkewedLatestGenerator(basis) and its
 * nextValue(); CounterGenerator(1000) as the basis of block 0; for block 1,
 * the keychooser and the transactioninsertkeysequence (an
 * AcknowledgedCounterGenerator(recordcount)) that CoreWorkload.init builds
 * for requestdistribution=latest, recordcount=100000 (YcsbWorkload), grown
 * with its nextValue() and acknowledge(v). The u each call drew is
 * recovered by Draws. */
package regionsim.reference;

import java.nio.file.Path;

import site.ycsb.WorkloadException;
import site.ycsb.generator.AcknowledgedCounterGenerator;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.SkewedLatestGenerator;

final class YcsbLatest {
    private YcsbLatest() {
    }

    static void write(Path dir) throws WorkloadException {
        try (Tsv t = new Tsv(dir, "ycsb_latest.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("SkewedLatestGenerator(basis): inner zipfian = new ZipfianGenerator(basis.lastValue()) i.e. items = lastValue (not lastValue+1); nextValue: max = basis.lastValue(); output = max - zipfian.nextLong(max)");
            t.comment("basis: counter = CounterGenerator(start) (lastValue = counter-1), acked = AcknowledgedCounterGenerator(recordcount) (lastValue = recordcount-1 until acknowledged): CoreWorkload.init's keychooser and transactioninsertkeysequence for requestdistribution=latest recordcount=100000");
            t.comment("rows in order per block; seed set after construction; growth: before the row, basis advanced (counter.nextValue() / nextValue()+acknowledge()) so that lastValue = basis_last");
            t.header("block", "basis", "construct_last", "basis_last", "u", "u_hex", "output");

            CounterGenerator counter = new CounterGenerator(1000);
            SkewedLatestGenerator plain = new SkewedLatestGenerator(counter);
            long constructLast = counter.lastValue();
            Draws.setSeed(4000);
            for (int i = 0; i < 250; i++)
                row(t, 0, "counter", constructLast, counter, plain);

            YcsbWorkload w = new YcsbWorkload("requestdistribution", "latest", "recordcount", "100000");
            SkewedLatestGenerator latest = (SkewedLatestGenerator) w.keychooser();
            AcknowledgedCounterGenerator acked = w.transactioninsertkeysequence();
            constructLast = acked.lastValue();
            Draws.setSeed(4001);
            for (int i = 0; i < 250; i++)
                row(t, 1, "acked", constructLast, acked, latest);
            for (int i = 0; i < 500; i++) {
                if (i % 2 == 0)
                    acked.acknowledge(acked.nextValue());
                row(t, 1, "acked", constructLast, acked, latest);
            }
        }
    }

    private static void row(Tsv t, int block, String basisName, long constructLast, CounterGenerator basis,
                            SkewedLatestGenerator g) {
        long before = Draws.seed();
        long out = g.nextValue();
        long after = Draws.seed();
        double u = Draws.replayDouble(before, after, "SkewedLatestGenerator.nextValue");
        t.row(block, basisName, constructLast, basis.lastValue(), u, Tsv.hex(u), out);
    }
}
