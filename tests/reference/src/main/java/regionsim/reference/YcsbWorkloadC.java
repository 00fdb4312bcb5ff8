/* YcsbWorkloadC -- ycsb_c_popularity.tsv: the key choice of YCSB's
 * workload C, run by the released CoreWorkload itself.
 *
 * Upstream called (site.ycsb:core): CoreWorkload.init(Properties) with
 * recordcount=100000, operationcount=200000, requestdistribution=zipfian,
 * readproportion=1, updateproportion=0, insertproportion=0 and
 * insertorder=ordered, then CoreWorkload.doTransactionRead(DB) 200000 times
 * against a DB that only records the key it is asked to read. The read
 * draws the key with CoreWorkload.nextKeynum (the keychooser, a
 * ScrambledZipfianGenerator, redrawn while above the acknowledged counter's
 * lastValue) and names it with buildKeyName; with insertorder=ordered and
 * zeropadding 1 the name is "user" + keynum, so the keynum is read back
 * from it (insertorder changes only the naming, not the draws). draws is
 * counted from the thread's seed (Draws.stepsBetween: one nextDouble per
 * draw, two seed steps each), so redraws = draws - ops. */
package regionsim.reference;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.WorkloadException;

final class YcsbWorkloadC {
    private static final long[] SEEDS = { 1, 2, 3, 42, 20260101 };
    private static final int OPS = 200000;
    private static final int TOP = 200;
    private static final int FIRST = 50;

    private YcsbWorkloadC() {
    }

    /* A DB that records the keynum of every read and does nothing else. */
    static final class ReadRecorder extends DB {
        final List<Long> keynums = new ArrayList<>();

        @Override
        public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
            if (!key.startsWith("user"))
                throw new IllegalStateException("CoreWorkload read key " + key + " without the user prefix");
            keynums.add(Long.parseLong(key.substring(4)));
            return Status.OK;
        }

        @Override
        public Status scan(String table, String start, int n, Set<String> fields,
                           Vector<HashMap<String, ByteIterator>> result) {
            throw new IllegalStateException("workload C scans nothing");
        }

        @Override
        public Status update(String table, String key, Map<String, ByteIterator> values) {
            throw new IllegalStateException("workload C updates nothing");
        }

        @Override
        public Status insert(String table, String key, Map<String, ByteIterator> values) {
            throw new IllegalStateException("workload C inserts nothing");
        }

        @Override
        public Status delete(String table, String key) {
            throw new IllegalStateException("workload C deletes nothing");
        }
    }

    static void write(Path dir) throws WorkloadException {
        try (Tsv t = new Tsv(dir, "ycsb_c_popularity.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("Workload C key choice: recordcount=100000 operationcount=200000 requestdistribution=zipfian readproportion=1 insertproportion=0 insertstart=0");
            t.comment("keychooser = new ScrambledZipfianGenerator(0, 0+100000+0) ; transactioninsertkeysequence = new AcknowledgedCounterGenerator(100000) (lastValue 99999);");
            t.comment("per op, CoreWorkload.doTransactionRead (the released class; insertorder=ordered so the key names its keynum): CoreWorkload.nextKeynum does keynum = keychooser.nextValue().intValue() while (keynum > lastValue). Seed set (Thread.threadLocalRandomSeed) after CoreWorkload.init.");
            t.comment("summary: draws = keychooser draws incl. redraws; distinct = keys read at least once; top: 200 most-read keys (ties by keynum ascending); first: first 50 keynums of the run");
            t.header("summary", "seed", "ops", "draws", "redraws", "distinct", "maxcount");
            t.header("top", "seed", "rank", "keynum", "count");
            t.header("first", "seed", "i", "keynum");
            for (long seed : SEEDS)
                run(t, seed);
        }
    }

    private static void run(Tsv t, long seed) throws WorkloadException {
        YcsbWorkload w = new YcsbWorkload("recordcount", "100000", "operationcount", "200000",
                "requestdistribution", "zipfian", "readproportion", "1", "updateproportion", "0",
                "scanproportion", "0", "insertproportion", "0", "readmodifywriteproportion", "0",
                "insertorder", "ordered");
        ReadRecorder db = new ReadRecorder();
        Draws.setSeed(seed);
        long before = Draws.seed();
        for (int i = 0; i < OPS; i++)
            w.doTransactionRead(db);
        long steps = Draws.stepsBetween(before, Draws.seed());
        if (steps % 2 != 0)
            throw new IllegalStateException("workload C drew something other than nextDouble");
        long draws = steps / 2;

        Map<Long, Integer> counts = new HashMap<>();
        for (long k : db.keynums)
            counts.merge(k, 1, Integer::sum);
        List<Map.Entry<Long, Integer>> ranked = new ArrayList<>(counts.entrySet());
        ranked.sort((a, b) -> a.getValue().equals(b.getValue()) ? Long.compare(a.getKey(), b.getKey())
                                                                 : Integer.compare(b.getValue(), a.getValue()));
        t.row("summary", seed, db.keynums.size(), draws, draws - db.keynums.size(), counts.size(),
              ranked.get(0).getValue());
        for (int r = 0; r < TOP && r < ranked.size(); r++)
            t.row("top", seed, r + 1, ranked.get(r).getKey(), ranked.get(r).getValue());
        for (int i = 0; i < FIRST; i++)
            t.row("first", seed, i, db.keynums.get(i));
    }
}
