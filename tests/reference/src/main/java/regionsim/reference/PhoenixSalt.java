/* PhoenixSalt -- phoenix_salt.tsv: Phoenix's salt byte (a table declared
 * with SALT_BUCKETS = N), for regionsim's psalt(N) and hash(N, ...).
 *
 * Upstream called (org.apache.phoenix:phoenix-core-client):
 * org.apache.phoenix.schema.SaltingUtil.getSaltedKey(ImmutableBytesWritable
 * key, int bucketNum), which Phoenix uses to salt a row key: it takes the
 * key with a slot for the salt in front (byte 0) and fills the slot with
 * SaltingUtil.getSaltingByte(byte[], offset, length, bucketNum) of the bytes
 * after it; getSaltingByte on the bare key must give the same byte, or the
 * run stops.
 * The keys: the vectors tests/test_keyscheme.c works by hand, then
 * byte strings of length 0..40 from java.util.SplittableRandom(29) (inputs
 * only); bucket counts 1..256 (SaltingUtil.MAX_BUCKET_NUM). */
package regionsim.reference;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.hadoop.hbase.io.ImmutableBytesWritable;
import org.apache.phoenix.schema.SaltingUtil;

final class PhoenixSalt {
    private static final int[] BUCKETS = { 1, 2, 3, 4, 7, 8, 16, 20, 26, 64, 100, 255, 256 };
    private static final int RANDOM_KEYS = 200;
    private static final int MAX_LEN = 40;

    private PhoenixSalt() {
    }

    /* The hand-worked vectors of tests/test_keyscheme.c, then random bytes. */
    static List<byte[]> keys() {
        HexFormat hex = HexFormat.of();
        List<byte[]> k = new ArrayList<>();
        for (String h : new String[] { "", "000001ff", "00000080", "0000018cc251f400", "0000018cc251f401",
                                       "000001ff0000018cc251f400", "9600f601f4fe", "7200ff5c77" })
            k.add(hex.parseHex(h));
        for (int i = 1; i <= 4; i++)
            k.add(("foo000" + i).getBytes(StandardCharsets.US_ASCII));
        SplittableRandom r = new SplittableRandom(29);
        for (int i = 0; i < RANDOM_KEYS; i++) {
            byte[] b = new byte[r.nextInt(MAX_LEN + 1)];
            r.nextBytes(b);
            k.add(b);
        }
        return k;
    }

    static void write(Path dir) {
        HexFormat hex = HexFormat.of();
        if (SaltingUtil.MAX_BUCKET_NUM != 256)
            throw new IllegalStateException("SaltingUtil.MAX_BUCKET_NUM is " + SaltingUtil.MAX_BUCKET_NUM);
        try (Tsv t = new Tsv(dir, "phoenix_salt.tsv", Main.PHOENIX, "phoenix_salt.md")) {
            t.comment("salted = SaltingUtil.getSaltedKey(new ImmutableBytesWritable(slot + key), buckets), slot a 0 byte it overwrites: the salt byte, then the key; salt = SaltingUtil.getSaltingByte(key, 0, key.length, buckets) as an unsigned byte (the same as salted's first byte)");
            t.header("buckets", "key_hex", "salt", "salted_hex");
            for (byte[] key : keys())
                for (int n : BUCKETS) {
                    byte[] slotted = new byte[key.length + 1]; /* byte 0: the salt's slot */
                    System.arraycopy(key, 0, slotted, 1, key.length);
                    byte[] salted = SaltingUtil.getSaltedKey(new ImmutableBytesWritable(slotted), n);
                    byte salt = SaltingUtil.getSaltingByte(key, 0, key.length, n);
                    if (salted[0] != salt)
                        throw new IllegalStateException("getSaltedKey and getSaltingByte disagree");
                    t.row(n, hex.formatHex(key), salt & 0xFF, hex.formatHex(salted));
                }
        }
    }
}
