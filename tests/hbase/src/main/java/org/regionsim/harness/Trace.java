package org.regionsim.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A regionsim trace (docs/workloads.md, "Traces" and "Writing a trace"),
 * read whole into parallel arrays before the cluster starts, so a bad line
 * is refused (FILE:LINE, exit 2) before anything runs and the replay loop
 * does no parsing.
 *
 * The dialect is regionsim's (workloads/trace.c): the delimiter is tab if
 * the first line that is neither empty nor a comment holds one, else comma;
 * that line is skipped if it is exactly a header (time,op,key[,bytes[,cells]]);
 * empty lines and lines starting with '#' are skipped; CSV fields may be
 * quoted ("a,b", "" for a quote); CR before LF is dropped; fields are not
 * trimmed. Ops: put, get, delete, scan, readmodifywrite, and YCSB's insert,
 * update (put) and read (get), in any case. The fourth field is a scan's row
 * count (required) or a put's value bytes (optional); the fifth a put's or
 * readmodifywrite's cells. Keys are in HBase shell form and are decoded with
 * Bytes.toBytesBinary, the shell's own inverse. The file is read as
 * ISO-8859-1 so that each byte stays one char, as toBytesBinary expects.
 */
public final class Trace {
  public static final byte PUT = 0, GET = 1, DELETE = 2, SCAN = 3, RMW = 4;
  public static final String[] KIND_NAMES = { "put", "get", "delete", "scan", "readmodifywrite" };

  public final String path;
  public int size;
  public long[] timeUs = new long[1024];
  public byte[] kind = new byte[1024];
  public byte[][] key = new byte[1024][];
  /** A scan's rows; a put's or readmodifywrite's value bytes, -1 when the line gives none. */
  public int[] amount = new int[1024];
  /** A put's or readmodifywrite's cells, 0 when the line gives none (one cell). */
  public int[] cells = new int[1024];

  private Trace(String path) {
    this.path = path;
  }

  public long lastTimeUs() {
    return size == 0 ? 0 : timeUs[size - 1];
  }

  public static Trace read(String path, long maxOps) throws BadArgument {
    Trace t = new Trace(path);
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
      Files.newInputStream(Paths.get(path)), StandardCharsets.ISO_8859_1))) {
      String line;
      long lineno = 0;
      Character delim = null;
      while ((line = r.readLine()) != null) {
        lineno++;
        if (line.endsWith("\r")) {
          line = line.substring(0, line.length() - 1);
        }
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        if (delim == null) {
          delim = line.indexOf('\t') >= 0 ? '\t' : ',';
          String plain = line.replace(delim, ',');
          if (plain.equals("time,op,key") || plain.equals("time,op,key,bytes")
            || plain.equals("time,op,key,bytes,cells")) {
            continue;
          }
        }
        if (t.size >= maxOps) {
          throw new BadArgument(path + ":" + lineno + ": the trace has more than --max-ops "
            + maxOps + " operations: give a shorter trace or a larger --max-ops");
        }
        t.add(path, lineno, split(path, lineno, line, delim));
      }
    } catch (IOException e) {
      throw new BadArgument("--trace: " + path + ": cannot read (" + e.getClass().getSimpleName()
        + ")");
    }
    if (t.size == 0) {
      throw new BadArgument("--trace: " + path + ": no operations");
    }
    return t;
  }

  private void add(String path, long lineno, List<String> f) throws BadArgument {
    String where = path + ":" + lineno + ": ";
    if (f.size() < 3 || f.size() > 5) {
      throw new BadArgument(where + "expected time,op,key[,bytes[,cells]], found " + f.size()
        + " fields");
    }
    long time;
    try {
      time = Long.parseUnsignedLong(f.get(0));
    } catch (NumberFormatException e) {
      throw new BadArgument(where + "time: expected microseconds, found '" + f.get(0) + "'");
    }
    if (time < 0) {
      throw new BadArgument(where + "time " + f.get(0) + " is beyond what the harness replays");
    }
    if (size > 0 && time < timeUs[size - 1]) {
      throw new BadArgument(where + "time " + time + " is before the previous operation's "
        + timeUs[size - 1]);
    }
    byte k = kindOf(where, f.get(1));
    int amt = -1;
    int c = 0;
    if (f.size() >= 4) {
      amt = count(where, k == SCAN ? "rows" : "bytes", f.get(3), k == SCAN ? 1 : 0);
    } else if (k == SCAN) {
      throw new BadArgument(where + "a scan needs its rows (time,scan,key,rows)");
    }
    if (f.size() == 5) {
      if (k != PUT && k != RMW) {
        throw new BadArgument(where + "cells on a " + KIND_NAMES[k]
          + ": expected them only on a put or readmodifywrite");
      }
      c = count(where, "cells", f.get(4), 1);
    }
    grow();
    timeUs[size] = time;
    kind[size] = k;
    key[size] = Bytes.toBytesBinary(f.get(2));
    amount[size] = amt;
    cells[size] = c;
    size++;
  }

  private static byte kindOf(String where, String op) throws BadArgument {
    switch (op.toLowerCase(Locale.ROOT)) {
      case "put": case "insert": case "update": return PUT;
      case "get": case "read": return GET;
      case "delete": return DELETE;
      case "scan": return SCAN;
      case "readmodifywrite": return RMW;
      default:
        throw new BadArgument(where + "op: expected put, get, delete, scan, readmodifywrite, "
          + "insert, update or read, found '" + op + "'");
    }
  }

  private static int count(String where, String what, String v, int min) throws BadArgument {
    try {
      int x = Integer.parseInt(v);
      if (x >= min) {
        return x;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadArgument(where + what + ": expected " + min + " to 2147483647, found '" + v + "'");
  }

  /** The fields of one line: TSV as it is, CSV with RFC 4180 quotes. */
  static List<String> split(String path, long lineno, String line, char delim) throws BadArgument {
    List<String> out = new ArrayList<>();
    if (delim == '\t') {
      for (String s : line.split("\t", -1)) {
        out.add(s);
      }
      return out;
    }
    int i = 0;
    int n = line.length();
    while (true) {
      StringBuilder sb = new StringBuilder();
      if (i < n && line.charAt(i) == '"') {
        i++;
        while (true) {
          if (i >= n) {
            throw new BadArgument(path + ":" + lineno + ": a quoted field is not closed");
          }
          char ch = line.charAt(i++);
          if (ch == '"') {
            if (i < n && line.charAt(i) == '"') {
              sb.append('"');
              i++;
            } else {
              break;
            }
          } else {
            sb.append(ch);
          }
        }
        if (i < n && line.charAt(i) != ',') {
          throw new BadArgument(path + ":" + lineno + ": text after a quoted field's closing quote");
        }
      } else {
        while (i < n && line.charAt(i) != ',') {
          sb.append(line.charAt(i++));
        }
      }
      out.add(sb.toString());
      if (i >= n) {
        return out;
      }
      i++; // the comma
    }
  }

  private void grow() {
    if (size < timeUs.length) {
      return;
    }
    int cap = timeUs.length * 2;
    timeUs = java.util.Arrays.copyOf(timeUs, cap);
    kind = java.util.Arrays.copyOf(kind, cap);
    key = java.util.Arrays.copyOf(key, cap);
    amount = java.util.Arrays.copyOf(amount, cap);
    cells = java.util.Arrays.copyOf(cells, cap);
  }
}
