/* YcsbKeys -- ycsb_keys.tsv: YCSB's row key names.
 *
 * Upstream called (site.ycsb:core): site.ycsb.Utils.fnvhash64(long), and
 * site.ycsb.workloads.CoreWorkload.buildKeyName(long) -- protected, so it is
 * called through the subclass YcsbWorkload after CoreWorkload.init(Properties)
 * with insertorder (hashed/ordered) and zeropadding (1/10/20) set; init reads
 * both into the fields buildKeyName uses. */
package regionsim.reference;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import site.ycsb.Utils;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

final class YcsbKeys {
    private static final int[] PADDINGS = { 1, 10, 20 };

    private YcsbKeys() {
    }

    /* 0..299, then edges: around 10^3, 10^5, 2^31, 2^32, 2^53, 2^63, and negatives. */
    static List<Long> keynums() {
        List<Long> k = new ArrayList<>();
        for (long i = 0; i < 300; i++)
            k.add(i);
        long[] edges = { 999, 1000, 99999, 100000, 100001, 120000, 1000000, 9999999, 10000000,
            2147483646L, 2147483647L, 2147483648L, 4294967295L, 4294967296L, 1L << 40, 1L << 53,
            (1L << 53) + 1, 10000000000L, Long.MAX_VALUE - 1, Long.MAX_VALUE, -1, -2, -255, -256,
            Integer.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE };
        for (long e : edges)
            k.add(e);
        return k;
    }

    static void write(Path dir) throws WorkloadException {
        YcsbWorkload[] hashed = new YcsbWorkload[PADDINGS.length], ordered = new YcsbWorkload[PADDINGS.length];
        for (int i = 0; i < PADDINGS.length; i++) {
            String zp = Integer.toString(PADDINGS[i]);
            hashed[i] = new YcsbWorkload(CoreWorkload.INSERT_ORDER_PROPERTY, "hashed", CoreWorkload.ZERO_PADDING_PROPERTY, zp);
            ordered[i] = new YcsbWorkload(CoreWorkload.INSERT_ORDER_PROPERTY, "ordered", CoreWorkload.ZERO_PADDING_PROPERTY, zp);
        }
        try (Tsv t = new Tsv(dir, "ycsb_keys.tsv", Main.YCSB, "ycsb_reference.md")) {
            t.comment("keynum; Utils.fnvhash64(keynum) (=Utils.hash); CoreWorkload.buildKeyName(keynum) after CoreWorkload.init with insertorder=hashed or ordered, zeropadding 1/10/20");
            t.header("keynum", "fnvhash64", "hashed_zp1", "hashed_zp10", "hashed_zp20", "ordered_zp1", "ordered_zp10", "ordered_zp20");
            for (long k : keynums())
                t.row(k, Utils.fnvhash64(k), hashed[0].keyName(k), hashed[1].keyName(k), hashed[2].keyName(k),
                      ordered[0].keyName(k), ordered[1].keyName(k), ordered[2].keyName(k));
        }
    }
}
