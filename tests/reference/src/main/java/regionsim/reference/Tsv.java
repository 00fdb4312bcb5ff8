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

    /* The first line names what made the file: the artifact (madeBy), the
     * class, the JVM, and the .md that describes it. */
    Tsv(Path dir, String name, String artifact, String md) {
        try {
            out = Files.newBufferedWriter(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(name), e);
        }
        comment("made by tests/reference/make.sh (" + callerClass() + ") calling " + artifact + " on "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "; see " + md);
    }

    private static String callerClass() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
                .walk(frames -> frames.skip(2).findFirst().orElseThrow().getDeclaringClass().getSimpleName());
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
