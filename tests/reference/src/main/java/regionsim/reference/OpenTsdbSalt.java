/* OpenTsdbSalt -- opentsdb_salt.tsv: OpenTSDB's salted row key
 * (tsd.storage.salt.width / tsd.storage.salt.buckets, OpenTSDB 2.2+), for
 * regionsim's osalt(N).
 *
 * Upstream called (net.opentsdb:opentsdb): net.opentsdb.utils.Config(false)
 * with overrideConfig of tsd.storage.salt.width and .buckets, then
 * new net.opentsdb.core.TSDB(config), which sets Const.SALT_WIDTH() and
 * Const.SALT_BUCKETS() from it (their setters are package-private); then
 * net.opentsdb.core.RowKey.prefixKeyWithSalt(row_key) on a row key laid out
 * as OpenTSDB lays it: [salt slot][metric UID][base time, 4 bytes][tagk UID,
 * tagv UID]..., UIDs 3 bytes (TSDB.metrics_width(), tagk_width(),
 * tagv_width(): the defaults). No connection is made: the TSDB's HBase
 * client connects on its first request and none is sent.
 * Width: 1 byte up to 256 buckets, else 2 (regionsim's osalt(N)).
 * The keys: the vectors tests/test_keyscheme.c works by hand, then metrics,
 * hours and 0..4 tag pairs from java.util.SplittableRandom(29) (inputs only;
 * never the metric UID 0, which prefixKeyWithSalt leaves unsalted and
 * regionsim's uid() never gives). */
package regionsim.reference;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import net.opentsdb.core.Const;
import net.opentsdb.core.RowKey;
import net.opentsdb.core.TSDB;
import net.opentsdb.utils.Config;

final class OpenTsdbSalt {
    private static final int[] BUCKETS = { 1, 2, 3, 4, 8, 20, 100, 255, 256, 257, 300, 1000, 65536 };
    private static final int RANDOM_KEYS = 150;

    private OpenTsdbSalt() {
    }

    private record Series(byte[] metric, byte[] hour, byte[] tags) {
    }

    static List<Series> series() {
        HexFormat hex = HexFormat.of();
        List<Series> s = new ArrayList<>();
        /* test_osalt_opentsdb_vectors: 2024-01-01T00:30:00.123Z, metric UID 1, tags(1) and tags(2) */
        s.add(new Series(hex.parseHex("000001"), hex.parseHex("65920080"), hex.parseHex("000001000001")));
        s.add(new Series(hex.parseHex("000001"), hex.parseHex("65920080"),
                         hex.parseHex("000001000001000002000002")));
        SplittableRandom r = new SplittableRandom(29);
        for (int i = 0; i < RANDOM_KEYS; i++) {
            byte[] metric = new byte[3];
            do
                r.nextBytes(metric);
            while (metric[0] == 0 && metric[1] == 0 && metric[2] == 0);
            long hourStart = r.nextLong(946684800L / 3600, 1893456000L / 3600) * 3600; /* 2000..2030 */
            byte[] hour = { (byte) (hourStart >>> 24), (byte) (hourStart >>> 16), (byte) (hourStart >>> 8),
                            (byte) hourStart };
            byte[] tags = new byte[6 * r.nextInt(5)];
            r.nextBytes(tags);
            s.add(new Series(metric, hour, tags));
        }
        return s;
    }

    static int width(int buckets) {
        return buckets <= 256 ? 1 : 2;
    }

    static void write(Path dir) {
        HexFormat hex = HexFormat.of();
        List<Series> all = series();
        try (Tsv t = new Tsv(dir, "opentsdb_salt.tsv", Main.OPENTSDB, "opentsdb_salt.md")) {
            t.comment("salted = RowKey.prefixKeyWithSalt on [width zero bytes][metric][hour][tags] after new TSDB(config) with tsd.storage.salt.width=width, tsd.storage.salt.buckets=buckets");
            t.header("buckets", "width", "metric_hex", "hour_hex", "tags_hex", "salted_hex");
            for (int n : BUCKETS) {
                configure(width(n), n);
                for (Series s : all) {
                    byte[] key = concat(new byte[width(n)], s.metric, s.hour, s.tags);
                    RowKey.prefixKeyWithSalt(key);
                    t.row(n, width(n), hex.formatHex(s.metric), hex.formatHex(s.hour), hex.formatHex(s.tags),
                          hex.formatHex(key));
                }
            }
        }
    }

    /* A TSDB made from this config sets OpenTSDB's salt width and buckets. */
    private static void configure(int width, int buckets) {
        try {
            Config c = new Config(false);
            c.overrideConfig("tsd.storage.salt.width", Integer.toString(width));
            c.overrideConfig("tsd.storage.salt.buckets", Integer.toString(buckets));
            TSDB tsdb = new TSDB(c);
            if (Const.SALT_WIDTH() != width || Const.SALT_BUCKETS() != buckets || TSDB.metrics_width() != 3
                || TSDB.tagk_width() != 3 || TSDB.tagv_width() != 3)
                throw new IllegalStateException("OpenTSDB did not take the salt configuration");
            tsdb.getClient().shutdown();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts)
            n += p.length;
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
