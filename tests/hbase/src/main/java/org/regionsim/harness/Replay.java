package org.regionsim.harness;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;
import org.apache.hbase.thirdparty.com.google.gson.GsonBuilder;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * The harness's entry point: replays a regionsim trace against a real HBase
 * mini cluster and writes one JSON of what HBase did (tests/hbase/README.md).
 *
 * Order: arguments, trace and split keys are read and checked before the
 * cluster starts (a bad one: exit 2, message naming it); then the cluster
 * (Cluster), the table (one family 't', no compression, no data block
 * encoding, pre-split at the keys given), the request tracker, a start
 * snapshot; the replay (Replayer) with a snapshot at every window's end (after
 * a bounded wait for no region in transition) and
 * a balancer run (Balancing) at every balancer time; at the end a flush, a
 * wait for no region in transition, a final snapshot; then the analysis
 * (Analysis: splits, windows), and the report, written to a temp file
 * beside --out and renamed, so a failed run leaves no report. The cluster
 * and its temp dir are removed on every exit path (a shutdown hook covers
 * SIGTERM/SIGINT). Exit: 0 done, 1 the cluster failed, 2 bad arguments.
 */
public final class Replay {
  public static final String NAME = "regionsim-hbase-harness";
  public static final String VERSION = "1";

  private Replay() {
  }

  public static void main(String[] argv) {
    int code;
    try {
      code = run(argv);
    } catch (BadArgument e) {
      System.err.println("harness: " + e.getMessage());
      code = 2;
    } catch (Throwable e) {
      System.err.println("harness: the cluster failed: " + e);
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    System.err.flush();
    // Stops HBase's and ZooKeeper's lingering threads: no process survives the JVM.
    Runtime.getRuntime().halt(code);
  }

  static List<byte[]> readSplitKeys(String path) throws BadArgument {
    List<byte[]> keys = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(Paths.get(path), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new BadArgument("--split-keys-file: " + path + ": cannot read ("
        + e.getClass().getSimpleName() + ")");
    }
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.endsWith("\r")) {
        l = l.substring(0, l.length() - 1);
      }
      if (l.isEmpty()) {
        continue;
      }
      byte[] k = Bytes.toBytesBinary(l);
      if (!keys.isEmpty() && Bytes.compareTo(keys.get(keys.size() - 1), k) >= 0) {
        throw new BadArgument(path + ":" + (i + 1) + ": split key '" + l
          + "' is not after the previous one (keys must be sorted and distinct)");
      }
      keys.add(k);
    }
    if (keys.isEmpty()) {
      throw new BadArgument("--split-keys-file: " + path + ": no keys");
    }
    return keys;
  }

  static int run(String[] argv) throws Exception {
    Options o = Options.parse(argv);
    Path out = Paths.get(o.out).toAbsolutePath();
    if (!Files.isDirectory(out.getParent())) {
      throw new BadArgument("--out: directory " + out.getParent() + " does not exist");
    }
    Trace trace = Trace.read(o.trace, o.maxOps);
    List<byte[]> splitKeys = o.splitKeysFile == null ? null : readSplitKeys(o.splitKeysFile);
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    System.err.printf("harness: %d operations over %.1f s of trace; starting HBase with %d "
      + "region servers%n", trace.size, trace.lastTimeUs() / 1e6, o.servers);
    long wall0 = System.nanoTime();
    Cluster[] holder = new Cluster[1];
    // On SIGTERM/SIGINT: stop the cluster (bounded: HBase's threads would write into the
    // data dir while it is removed), then remove the data dir and the partial report.
    Thread hook = new Thread(() -> {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        // nothing more to do on the way out
      }
      Cluster c = holder[0];
      if (c != null) {
        Thread stop = new Thread(c::close, "regionsim-stop");
        stop.setDaemon(true);
        stop.start();
        try {
          stop.join(30_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        Cluster.removeTree(c.dataDir);
      }
    });
    Runtime.getRuntime().addShutdownHook(hook);
    try (Cluster cluster = Cluster.start(o)) {
      holder[0] = cluster;
      System.err.printf("harness: HBase %s up in %.1f s%n", VersionInfo.getVersion(),
        cluster.startSeconds);
      JsonObject report = replay(o, trace, splitKeys, cluster);
      report.addProperty("wall_seconds", (System.nanoTime() - wall0) / 1e9);
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().serializeSpecialFloatingPointValues()
          .create().toJson(report, w);
        w.write("\n");
      }
      Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      System.err.printf("harness: wrote %s (%.1f s)%n", out, (System.nanoTime() - wall0) / 1e9);
      return 0;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static JsonObject replay(Options o, Trace trace, List<byte[]> splitKeys, Cluster cluster)
    throws Exception {
    Admin admin = cluster.admin();
    TableName table = TableName.valueOf(o.table);
    ColumnFamilyDescriptor family = ColumnFamilyDescriptorBuilder.newBuilder(Replayer.FAMILY)
      .setCompressionType(Compression.Algorithm.NONE)
      .setDataBlockEncoding(DataBlockEncoding.NONE).build();
    TableDescriptorBuilder td = TableDescriptorBuilder.newBuilder(table).setColumnFamily(family);
    if (splitKeys == null) {
      admin.createTable(td.build());
    } else {
      admin.createTable(td.build(), splitKeys.toArray(new byte[0][]));
    }
    cluster.util.waitTableAvailable(table);

    List<ServerName> servers = cluster.sortedServerNames();
    Replayer replayer = new Replayer(o, trace, cluster.connection(), table);
    RequestTracker tracker = new RequestTracker(cluster.sortedServers(), o.sampleMs,
      replayer::traceClockUs);
    tracker.start();
    Snapshotter snaps = new Snapshotter(admin, servers, tracker);
    Balancing balancing = new Balancing(admin, snaps, o.ritTimeoutMs, o.statusIntervalMs);
    balancing.waitNoRegionInTransition();
    snaps.take("start", 0);
    replayer.run((window, traceUs) -> {
      if (window) {
        // A region in transition (a split under way) is in no server's list: wait, so that
        // each snapshot's regions tile the table.
        balancing.waitNoRegionInTransition();
        snaps.take("window", traceUs);
        System.err.printf("harness: window ending at %.1f s of trace%n", traceUs / 1e6);
      } else {
        balancing.run(traceUs);
        System.err.printf("harness: balancer at %.1f s of trace%n", traceUs / 1e6);
      }
    });
    double endRit = balancing.waitNoRegionInTransition();
    snaps.take("end", trace.lastTimeUs());
    tracker.close();

    JsonObject r = new JsonObject();
    r.addProperty("harness", Replay.NAME);
    r.addProperty("harness_version", VERSION);
    r.addProperty("hbase_version", VersionInfo.getVersion());
    r.addProperty("hbase_revision", VersionInfo.getRevision());
    r.addProperty("hbase_testing_class", HBaseTestingUtility.class.getName());
    r.addProperty("java_version", System.getProperty("java.version"));
    r.addProperty("java_vm", System.getProperty("java.vm.name"));
    r.addProperty("command", o.command);
    JsonArray args = new JsonArray();
    o.args.forEach(args::add);
    r.add("args", args);
    r.add("options", options(o, trace, splitKeys));
    JsonObject set = new JsonObject();
    cluster.set.forEach(set::addProperty);
    r.add("configuration_set", set);
    JsonObject relied = new JsonObject();
    cluster.reliedOn.forEach(relied::addProperty);
    r.add("configuration_defaults", relied);
    r.add("table", tableJson(td, splitKeys));
    r.addProperty("cluster_start_seconds", cluster.startSeconds);
    JsonArray sv = new JsonArray();
    for (int i = 0; i < servers.size(); i++) {
      JsonObject s = new JsonObject();
      s.addProperty("server", i);
      s.addProperty("name", servers.get(i).getServerName());
      s.addProperty("host", servers.get(i).getHostname());
      s.addProperty("port", servers.get(i).getPort());
      s.addProperty("start_code", servers.get(i).getStartcode());
      sv.add(s);
    }
    r.add("servers", sv);
    JsonObject rep = replayer.json();
    rep.addProperty("rit_wait_max_seconds", balancing.ritWaitMaxSeconds);
    rep.addProperty("rit_wait_end_seconds", endRit);
    rep.addProperty("rit_timeouts", balancing.ritTimeouts);
    rep.addProperty("tracker_samples", tracker.samples);
    r.add("replay", rep);
    JsonArray unexplained = new JsonArray();
    r.add("splits", Analysis.splits(snaps.taken, unexplained));
    r.add("region_changes_unexplained", unexplained);
    r.add("balancer_runs", balancing.runs);
    JsonArray windows = Analysis.windows(snaps.taken, table.getNameAsString(), servers.size());
    r.add("windows", windows);
    r.add("write_check", writeCheck(windows, replayer));
    JsonArray sj = new JsonArray();
    for (Snapshot s : snaps.taken) {
      sj.add(s.json());
    }
    r.add("snapshots", sj);
    return r;
  }

  /** Do HBase's write requests on the table add up to the mutations sent (one per Put/Delete)? */
  static JsonObject writeCheck(JsonArray windows, Replayer replayer) {
    long counted = 0;
    for (int i = 0; i < windows.size(); i++) {
      JsonArray ss = windows.get(i).getAsJsonObject().getAsJsonArray("servers");
      for (int j = 0; j < ss.size(); j++) {
        counted += ss.get(j).getAsJsonObject().get("write_requests").getAsLong();
      }
    }
    JsonObject c = new JsonObject();
    c.addProperty("mutations_sent", replayer.mutationsSent());
    c.addProperty("write_errors", replayer.writeErrors());
    c.addProperty("write_requests_counted", counted);
    c.addProperty("difference", counted - replayer.mutationsSent());
    return c;
  }

  static JsonObject options(Options o, Trace trace, List<byte[]> splitKeys) {
    JsonObject j = new JsonObject();
    j.addProperty("trace", o.trace);
    j.addProperty("trace_ops", trace.size);
    j.addProperty("trace_last_us", trace.lastTimeUs());
    j.addProperty("servers", o.servers);
    j.addProperty("table", o.table);
    j.addProperty("split_keys_file", o.splitKeysFile);
    j.addProperty("region_size", o.regionSize);
    j.addProperty("flush_size", o.flushSize);
    j.addProperty("split_policy", o.splitPolicy);
    j.addProperty("split_jitter", o.splitJitter);
    j.addProperty("balancer", o.balancer);
    JsonArray bt = new JsonArray();
    o.balancerTimesUs.forEach(bt::add);
    j.add("balancer_times_us", bt);
    j.addProperty("window_us", o.windowUs);
    j.addProperty("status_interval_ms", o.statusIntervalMs);
    j.addProperty("speed", o.speed);
    j.addProperty("value_bytes", o.valueBytes);
    j.addProperty("qualifier_bytes", o.qualifierBytes);
    j.addProperty("qualifiers", o.qualifiers);
    j.addProperty("max_ops", o.maxOps);
    j.addProperty("threads", o.threads);
    j.addProperty("flush_ms", o.flushMs);
    j.addProperty("sample_ms", o.sampleMs);
    j.addProperty("rit_timeout_ms", o.ritTimeoutMs);
    return j;
  }

  static JsonObject tableJson(TableDescriptorBuilder td, List<byte[]> splitKeys) {
    JsonObject t = new JsonObject();
    t.addProperty("descriptor", td.build().toString());
    JsonArray keys = new JsonArray();
    if (splitKeys != null) {
      for (byte[] k : splitKeys) {
        keys.add(Bytes.toStringBinary(k));
      }
    }
    t.add("split_keys", keys);
    return t;
  }

}
