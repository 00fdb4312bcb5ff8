package org.regionsim.harness;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

/**
 * A real HBase in this JVM: a mini ZooKeeper and a MiniHBaseCluster of one
 * master and N region servers, on the local filesystem (no HDFS), from
 * HBase's own test utility, org.apache.hadoop.hbase.HBaseTestingUtility
 * (hbase-server's tests jar; 2.6's name for it).
 *
 * No HDFS: HBaseTestingUtility's constructor sets fs.defaultFS=file:/// and
 * hbase.rootdir to file://DATA_TEST_DIR (HBaseTestingUtility(Configuration)),
 * and only startMiniCluster(...) starts a MiniDFSCluster. So the harness
 * calls startMiniZKCluster() then startMiniHBaseCluster(option), which
 * creates the root dir (createRootDir(true): a new dir under the data test
 * dir on the local filesystem) and starts the master and servers. The data
 * test dir is under the system property test.build.data.basedirectory
 * (HBaseCommonTestingUtility.getBaseTestDir), set here to a fresh temp
 * dir that close() removes, also after a failure.
 *
 * The region servers are ClosingRegionServer: HBase's own mini cluster
 * server, which also tells the request tracker of every region it closes.
 *
 * Configuration: what the run sets is in `set` (recorded in the report with
 * its values); everything else is HBase's default, and the defaults the
 * comparison relies on are read back from the running configuration into
 * `reliedOn`.
 */
public final class Cluster implements AutoCloseable {
  /** Keys whose HBase defaults the comparison relies on, read back and recorded. */
  static final String[] RELIED_ON = {
    "hbase.hstore.blockingStoreFiles", "hbase.hstore.compactionThreshold",
    "hbase.hstore.compaction.min", "hbase.hstore.compaction.max",
    "hbase.hstore.compaction.ratio", "hbase.hregion.memstore.block.multiplier",
    "hbase.hregion.majorcompaction", "hbase.hregion.split.overallfiles",
    "hbase.increasing.policy.initial.size", "hbase.regionserver.regionSplitLimit",
    // A daughter cannot split while its compacted reference files are not yet discharged
    // (HStore.hasReferences counts getCompactedFiles, HBASE-20940); the discharger chore runs
    // every this many ms (HRegionServer: conf.getInt(..., 2 * 60 * 1000)).
    "hbase.hfile.compaction.discharger.interval",
    "hbase.regions.slop", "hbase.master.balancer.stochastic.maxSteps",
    "hbase.master.balancer.stochastic.stepsPerRegion",
    "hbase.master.balancer.stochastic.maxRunningTime",
    "hbase.master.balancer.stochastic.minCostNeedBalance",
    "hbase.master.balancer.stochastic.regionCountCost",
    "hbase.master.balancer.stochastic.moveCost",
    "hbase.master.balancer.stochastic.tableSkewCost",
    "hbase.master.balancer.stochastic.readRequestCost",
    "hbase.master.balancer.stochastic.writeRequestCost",
    "hbase.master.balancer.stochastic.memstoreSizeCost",
    "hbase.master.balancer.stochastic.storefileSizeCost",
    "hbase.master.balancer.stochastic.localityCost",
    "hbase.master.balancer.stochastic.numRegionLoadsToRemember",
    "hbase.master.balancer.decision.queue.size", "hbase.master.balancer.maxRitPercent",
    "hbase.balancer.tablesOnMaster", "hbase.master.loadbalance.bytable",
    "hbase.regionserver.handler.count", "hbase.client.write.buffer",
    "hbase.client.scanner.caching", "hbase.client.scanner.max.result.size",
    "hfile.block.cache.size", "hbase.mapreduce.hfileoutputformat.blocksize",
    "hbase.hregion.memstore.mslab.enabled", "hbase.regionserver.global.memstore.size",
    "hbase.wal.provider", "fs.defaultFS", "hbase.rootdir",
    "hbase.unsafe.stream.capability.enforce", "hbase.defaults.for.version",
  };

  public final Map<String, String> set = new LinkedHashMap<>();
  public final Map<String, String> reliedOn = new LinkedHashMap<>();
  public final HBaseTestingUtility util;
  public final Path dataDir;
  public double startSeconds;
  private boolean zkStarted;
  private boolean hbaseStarted;
  private boolean closed;

  private Cluster(Options o) throws IOException {
    dataDir = Files.createTempDirectory("regionsim-hbase-");
    System.setProperty("test.build.data.basedirectory", dataDir.toString());
    Configuration conf = HBaseConfiguration.create();
    set(conf, "hbase.table.sanity.checks", "false");
    set(conf, "hbase.hregion.max.filesize", Long.toString(o.regionSize));
    set(conf, "hbase.hregion.memstore.flush.size", Long.toString(o.flushSize));
    set(conf, "hbase.regionserver.region.split.policy", o.splitPolicyClass());
    set(conf, "hbase.hregion.max.filesize.jitter", Double.toString(o.splitJitter));
    set(conf, "hbase.master.loadbalancer.class", o.balancerClass());
    // The chore never runs by itself: the harness calls the balancer at the trace's times.
    // HMaster reads the period with conf.getInt(HConstants.HBASE_BALANCER_PERIOD, ...).
    set(conf, "hbase.balancer.period", Integer.toString(Integer.MAX_VALUE));
    set(conf, "hbase.master.balancer.decision.buffer.enabled", "true");
    set(conf, "hbase.master.balancer.rejection.buffer.enabled", "true");
    set(conf, "hbase.regionserver.msginterval", Integer.toString(o.statusIntervalMs));
    // No web UIs: unused here, and their JAXB needs --add-opens on Java 17 (HBase's own
    // test hbase-site.xml turns them off the same way).
    set(conf, "hbase.master.info.port", "-1");
    set(conf, "hbase.regionserver.info.port", "-1");
    // The caller's own settings (--conf), e.g. wall-clock chores scaled to the replay's speed.
    for (java.util.Map.Entry<String, String> e : o.conf.entrySet()) {
      set(conf, e.getKey(), e.getValue());
    }
    util = new HBaseTestingUtility(conf);
  }

  private void set(Configuration conf, String key, String value) {
    conf.set(key, value);
    set.put(key, value);
  }

  /** Starts ZooKeeper and the HBase cluster; on failure everything started is stopped. */
  public static Cluster start(Options o) throws Exception {
    Cluster c = new Cluster(o);
    try {
      long t0 = System.nanoTime();
      c.util.startMiniZKCluster();
      c.zkStarted = true;
      StartMiniClusterOption option = StartMiniClusterOption.builder().numMasters(1)
        .numRegionServers(o.servers).numDataNodes(0).createRootDir(true)
        .rsClass(ClosingRegionServer.class).build();
      c.util.startMiniHBaseCluster(option);
      c.hbaseStarted = true;
      c.startSeconds = (System.nanoTime() - t0) / 1e9;
      Configuration running = c.util.getConfiguration();
      for (String k : RELIED_ON) {
        String v = running.get(k);
        c.reliedOn.put(k, v == null ? "(unset: the code's default)" : v);
      }
      // What the running cluster really has for the values the harness set.
      for (String k : c.set.keySet()) {
        String v = running.get(k);
        if (!c.set.get(k).equals(v)) {
          throw new IllegalStateException("configuration " + k + " is " + v + ", not "
            + c.set.get(k));
        }
      }
      return c;
    } catch (Exception | Error e) {
      c.close();
      throw e;
    }
  }

  public Connection connection() throws IOException {
    return util.getConnection();
  }

  public Admin admin() throws IOException {
    return util.getAdmin();
  }

  public MiniHBaseCluster hbase() {
    return util.getMiniHBaseCluster();
  }

  /** The live region servers, sorted by ServerName (host, port, start code): the server index. */
  public List<HRegionServer> sortedServers() {
    List<HRegionServer> out = new ArrayList<>();
    for (JVMClusterUtil.RegionServerThread t : hbase().getLiveRegionServerThreads()) {
      out.add(t.getRegionServer());
    }
    out.sort((a, b) -> a.getServerName().compareTo(b.getServerName()));
    return out;
  }

  public List<ServerName> sortedServerNames() {
    List<ServerName> out = new ArrayList<>();
    for (HRegionServer rs : sortedServers()) {
      out.add(rs.getServerName());
    }
    return out;
  }

  /** Stops HBase and ZooKeeper and removes the data dir; once, whoever calls first. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (hbaseStarted) {
        util.shutdownMiniHBaseCluster();
      }
    } catch (Exception e) {
      System.err.println("harness: stopping HBase: " + e);
    }
    try {
      if (zkStarted) {
        util.shutdownMiniZKCluster();
      }
    } catch (Exception e) {
      System.err.println("harness: stopping ZooKeeper: " + e);
    }
    removeTree(dataDir);
  }

  /** Removes a directory tree; tries again a few times while files still appear in it. */
  static void removeTree(Path root) {
    for (int attempt = 0; attempt < 5 && root != null && Files.exists(root); attempt++) {
      if (attempt > 0) {
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      removeOnce(root);
    }
    if (root != null && Files.exists(root)) {
      System.err.println("harness: could not remove " + root);
    }
  }

  private static void removeOnce(Path root) {
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
          Files.deleteIfExists(f);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path f, IOException e) {
          return FileVisitResult.CONTINUE; // gone meanwhile
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) {
          try {
            Files.deleteIfExists(d);
          } catch (IOException x) {
            // not empty: a file appeared meanwhile; removeTree tries again
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      // a file appeared or went meanwhile: removeTree tries again
    }
  }
}
