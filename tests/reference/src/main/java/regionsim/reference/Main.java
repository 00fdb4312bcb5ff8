/* Main -- writes every reference file this project covers into a folder.
 *
 * Usage: java --add-opens java.base/java.lang=ALL-UNNAMED -cp ... \
 *            regionsim.reference.Main OUTDIR
 * Each family is one class (Ycsb*, PhoenixSalt, OpenTsdbSalt); each calls the
 * released upstream classes (the pom names the artifacts) and copies none of
 * their code. Runs are deterministic: the same jars give the same files. */
package regionsim.reference;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import site.ycsb.measurements.Measurements;

public final class Main {
    /* The released artifacts, as pom.xml names them (keep the two in step):
     * each file's first line names the one it was made with. */
    static final String YCSB = "site.ycsb:core:0.17.0";
    static final String OPENTSDB = "net.opentsdb:opentsdb:2.4.1";
    static final String PHOENIX = "org.apache.phoenix:phoenix-core-client:5.2.1";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: regionsim.reference.Main OUTDIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        if (!Files.isDirectory(dir)) {
            System.err.println("regionsim.reference.Main: " + dir + " is not a directory");
            System.exit(2);
        }
        /* CoreWorkload's constructor asks Measurements for its singleton,
         * which needs its properties set first (site.ycsb.Client does this). */
        Measurements.setProperties(new Properties());
        YcsbRandomStream.write(dir);
        YcsbKeys.write(dir);
        YcsbZipfian.write(dir);
        YcsbScrambled.write(dir);
        YcsbLatest.write(dir);
        YcsbHotspot.write(dir);
        YcsbExponential.write(dir);
        YcsbUniform.write(dir);
        YcsbWorkloadC.write(dir);
        PhoenixSalt.write(dir);
        OpenTsdbSalt.write(dir);
        System.exit(0); /* the HBase clients' threads are not daemons */
    }
}
