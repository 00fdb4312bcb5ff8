/* Tsv -- writing a reference file: '#' comment and header lines, then
 * tab-separated rows. Doubles are written twice by callers: Double.toString
 * (the shortest decimal that round-trips) and Double.toHexString (exact). */
package regionsim.reference;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

final class Tsv implements AutoCloseable {
    private final BufferedWriter out;

    Tsv(Path dir, String name, String madeBy) {
        try {
            out = Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(name), e);
        }
        comment("made by " + madeBy + " on " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version"));
    }

    void comment(String text) {
        line("# " + text);
    }

    /* A column header: '#' then the names, tab-separated. */
    void header(String... names) {
        line("#" + String.join("\t", names));
    }

    void row(Object... cells) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0)
                b.append('\t');
            b.append(cells[i]);
        }
        line(b.toString());
    }

    static String hex(double d) {
        return Double.toHexString(d);
    }

    private void line(String s) {
        try {
            out.write(s);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
