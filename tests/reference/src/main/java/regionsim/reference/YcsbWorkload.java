/* YcsbWorkload -- a site.ycsb.workloads.CoreWorkload after init(Properties),
 * whose generators (protected fields) the reference classes can take, so
 * that a generator's arguments are the ones the released CoreWorkload.init
 * passes rather than ones we restate. */
package regionsim.reference;

import java.util.Properties;

import site.ycsb.WorkloadException;
import site.ycsb.generator.AcknowledgedCounterGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.workloads.CoreWorkload;

final class YcsbWorkload extends CoreWorkload {
    YcsbWorkload(String... keyValues) throws WorkloadException {
        init(props(keyValues));
    }

    static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i + 1 < keyValues.length; i += 2)
            p.setProperty(keyValues[i], keyValues[i + 1]);
        return p;
    }

    NumberGenerator keychooser() {
        return keychooser;
    }

    NumberGenerator fieldchooser() {
        return fieldchooser;
    }

    NumberGenerator scanlength() {
        return scanlength;
    }

    AcknowledgedCounterGenerator transactioninsertkeysequence() {
        return transactioninsertkeysequence;
    }

    /* CoreWorkload.getFieldLengthGenerator(Properties): protected static. */
    static NumberGenerator fieldLengthGenerator(String... keyValues) throws WorkloadException {
        return getFieldLengthGenerator(props(keyValues));
    }

    /* CoreWorkload.buildKeyName(long): protected. */
    String keyName(long keynum) {
        return buildKeyName(keynum);
    }
}
