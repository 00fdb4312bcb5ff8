package org.regionsim.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The harness's command line, parsed and checked before anything starts.
 *
 * Every option is "--name VALUE" (or "--name=VALUE"); an unknown option, a
 * missing value or a value out of range is a BadArgument naming the option.
 * Sizes are bytes, times of the trace are microseconds of simulated time
 * (regionsim's trace clock), wall times are milliseconds. The command line
 * as typed is kept (args) for the report.
 */
public final class Options {
  public static final String USAGE = String.join("\n",
    "usage: harness.sh --trace FILE --out FILE [options]",
    "  --servers N             region servers (default 4, 1..16)",
    "  --table NAME            table name (default t)",
    "  --split-keys-file FILE  pre-split keys, one a line in HBase shell form",
    "  --region-size BYTES     hbase.hregion.max.filesize (default 10737418240, HBase's)",
    "  --flush-size BYTES      hbase.hregion.memstore.flush.size (default 134217728, HBase's)",
    "  --split-policy P        constant|increasing|stepping|disabled (default stepping, HBase's)",
    "  --split-jitter X        hbase.hregion.max.filesize.jitter (default 0.25, HBase's)",
    "  --balancer B            simple|stochastic (default stochastic, HBase's)",
    "  --balancer-times-us T1,T2,...  trace times at which the balancer runs",
    "  --window-us US          snapshot every US of trace time (default 60000000)",
    "  --status-interval-ms MS hbase.regionserver.msginterval (default 1000)",
    "  --speed X               trace microseconds per wall microsecond (default 1)",
    "  --value-bytes N         a put's value bytes when the trace gives none (default 8)",
    "  --qualifier-bytes N     each cell's qualifier length (default 2, regionsim's)",
    "  --qualifiers Q          index (a put's cells are qualifiers 0..n-1: a put again overwrites,",
    "                          as a YCSB update does) or row (a row's cells are numbered over all",
    "                          its puts: every put adds cells, as OpenTSDB's time offsets do) (index)",
    "  --max-ops N             refuse a trace of more operations (default 2000000)",
    "  --threads N             reader threads for gets and scans (default 4)",
    "  --flush-ms MS           flush the buffered writes every MS (default 50)",
    "  --sample-ms MS          the request-counter sampler's period (default 100)",
    "  --rit-timeout-ms MS     longest wait for no region in transition (default 60000)",
    "  --command TEXT          the command line to record (default: this one)",
    "  --conf KEY=VALUE        set an HBase configuration value (repeatable; after the above)");

  public String trace;
  public String out;
  public int servers = 4;
  public String table = "t";
  public String splitKeysFile;
  public long regionSize = 10737418240L;
  public long flushSize = 134217728L;
  public String splitPolicy = "stepping";
  public double splitJitter = 0.25;
  public String balancer = "stochastic";
  public List<Long> balancerTimesUs = new ArrayList<>();
  public long windowUs = 60_000_000L;
  public int statusIntervalMs = 1000;
  public double speed = 1.0;
  public int valueBytes = 8;
  public int qualifierBytes = 2;
  public String qualifiers = "index";
  public long maxOps = 2_000_000L;
  public int threads = 4;
  public int flushMs = 50;
  public int sampleMs = 100;
  public int ritTimeoutMs = 60_000;
  /** --conf KEY=VALUE, in order: set after the harness's own settings. */
  public java.util.LinkedHashMap<String, String> conf = new java.util.LinkedHashMap<>();
  public String command;
  public List<String> args = new ArrayList<>();

  /** The HBase split policy class for a --split-policy name. */
  public String splitPolicyClass() {
    switch (splitPolicy) {
      case "constant": return "org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy";
      case "increasing":
        return "org.apache.hadoop.hbase.regionserver.IncreasingToUpperBoundRegionSplitPolicy";
      case "stepping": return "org.apache.hadoop.hbase.regionserver.SteppingSplitPolicy";
      default: return "org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy";
    }
  }

  /** The HBase balancer class for a --balancer name. */
  public String balancerClass() {
    return balancer.equals("simple")
      ? "org.apache.hadoop.hbase.master.balancer.SimpleLoadBalancer"
      : "org.apache.hadoop.hbase.master.balancer.StochasticLoadBalancer";
  }

  public static Options parse(String[] argv) throws BadArgument {
    Options o = new Options();
    Collections.addAll(o.args, argv);
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (!a.startsWith("--")) {
        throw new BadArgument("unexpected argument '" + a + "' (options start with --)");
      }
      String name = a;
      String value;
      int eq = a.indexOf('=');
      if (eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      } else {
        if (i + 1 >= argv.length) {
          throw new BadArgument(name + ": needs a value");
        }
        value = argv[++i];
      }
      o.set(name, value);
    }
    if (o.trace == null) {
      throw new BadArgument("--trace: required (a regionsim trace, CSV)");
    }
    if (o.out == null) {
      throw new BadArgument("--out: required (the JSON report to write)");
    }
    if (o.command == null) {
      o.command = "tests/hbase/harness.sh " + shellJoin(o.args);
    }
    return o;
  }

  private void set(String name, String v) throws BadArgument {
    switch (name) {
      case "--trace": trace = v; break;
      case "--out": out = v; break;
      case "--servers": servers = (int) integer(name, v, 1, 16); break;
      case "--table":
        if (v.isEmpty() || !v.matches("[A-Za-z0-9_.-]+")) {
          throw new BadArgument(name + ": '" + v + "' is not a plain table name");
        }
        table = v;
        break;
      case "--split-keys-file": splitKeysFile = v; break;
      case "--region-size": regionSize = integer(name, v, 1, Long.MAX_VALUE); break;
      case "--flush-size": flushSize = integer(name, v, 1, Long.MAX_VALUE); break;
      case "--split-policy":
        if (!List.of("constant", "increasing", "stepping", "disabled").contains(v)) {
          throw new BadArgument(name + ": '" + v
            + "' is not one of constant, increasing, stepping, disabled");
        }
        splitPolicy = v;
        break;
      case "--split-jitter": splitJitter = real(name, v, 0.0, 2.0); break;
      case "--balancer":
        if (!v.equals("simple") && !v.equals("stochastic")) {
          throw new BadArgument(name + ": '" + v + "' is not simple or stochastic");
        }
        balancer = v;
        break;
      case "--balancer-times-us":
        balancerTimesUs.clear();
        if (!v.isEmpty()) {
          long last = -1;
          for (String t : v.split(",")) {
            long x = integer(name, t.trim(), 0, Long.MAX_VALUE);
            if (x < last) {
              throw new BadArgument(name + ": times must not decrease (" + x + " after " + last + ")");
            }
            balancerTimesUs.add(x);
            last = x;
          }
        }
        break;
      case "--window-us": windowUs = integer(name, v, 1, Long.MAX_VALUE); break;
      case "--status-interval-ms": statusIntervalMs = (int) integer(name, v, 1, 3_600_000); break;
      case "--speed": speed = real(name, v, 1e-6, 1e6); break;
      case "--value-bytes": valueBytes = (int) integer(name, v, 0, Integer.MAX_VALUE); break;
      case "--qualifier-bytes": qualifierBytes = (int) integer(name, v, 0, 65535); break;
      case "--qualifiers":
        if (!v.equals("index") && !v.equals("row")) {
          throw new BadArgument(name + ": '" + v + "' is not index or row");
        }
        qualifiers = v;
        break;
      case "--max-ops": maxOps = integer(name, v, 1, Long.MAX_VALUE); break;
      case "--threads": threads = (int) integer(name, v, 1, 64); break;
      case "--flush-ms": flushMs = (int) integer(name, v, 1, 60_000); break;
      case "--sample-ms": sampleMs = (int) integer(name, v, 1, 60_000); break;
      case "--rit-timeout-ms": ritTimeoutMs = (int) integer(name, v, 1, 3_600_000); break;
      case "--command": command = v; break;
      case "--conf": {
        int eq = v.indexOf('=');
        if (eq <= 0) {
          throw new BadArgument(name + ": '" + v + "' is not KEY=VALUE");
        }
        conf.put(v.substring(0, eq), v.substring(eq + 1));
        break;
      }
      default: throw new BadArgument(name + ": unknown option\n" + USAGE);
    }
  }

  private static long integer(String name, String v, long min, long max) throws BadArgument {
    long x;
    try {
      x = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new BadArgument(name + ": '" + v + "' is not a whole number");
    }
    if (x < min || x > max) {
      throw new BadArgument(name + ": " + x + " is out of range " + min + ".." + max);
    }
    return x;
  }

  private static double real(String name, String v, double min, double max) throws BadArgument {
    double x;
    try {
      x = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new BadArgument(name + ": '" + v + "' is not a number");
    }
    if (!(x >= min && x <= max)) {
      throw new BadArgument(name + ": " + v + " is out of range " + min + ".." + max);
    }
    return x;
  }

  /** The arguments as a POSIX shell would take them back. */
  static String shellJoin(List<String> args) {
    StringBuilder sb = new StringBuilder();
    for (String a : args) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      if (!a.isEmpty() && a.matches("[A-Za-z0-9_./=,:@%+-]+")) {
        sb.append(a);
      } else {
        sb.append('\'').append(a.replace("'", "'\\''")).append('\'');
      }
    }
    return sb.toString();
  }
}
