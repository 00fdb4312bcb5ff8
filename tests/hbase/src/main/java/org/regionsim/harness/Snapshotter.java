package org.regionsim.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Takes snapshots (see Snapshot) and keeps them in order.
 *
 * Regions come from the servers themselves, per server: Admin.getRegions
 * (RegionInfo: table, boundaries, encoded name) and Admin.getRegionMetrics
 * (counters, sizes), matched on the region name. Both are RPCs to the
 * region server, so they are current, unlike ServerMetrics, which is the
 * server's last heartbeat to the master (every hbase.regionserver.msginterval).
 * Sizes from RegionMetrics are whole megabytes (RegionMetricsBuilder reads
 * RegionLoad's storefile_size_MB, which HRegionServer.createRegionLoad fills
 * with roundSize: 0 stays 0, under 1 MB is 1, else the floor), so the exact
 * bytes come from the request tracker's in-JVM sample of the same region.
 */
public final class Snapshotter {
  private final Admin admin;
  private final List<ServerName> servers;
  private final RequestTracker tracker;
  private final long wallStartNanos;
  public final List<Snapshot> taken = new ArrayList<>();

  public Snapshotter(Admin admin, List<ServerName> sortedServers, RequestTracker tracker) {
    this.admin = admin;
    this.servers = sortedServers;
    this.tracker = tracker;
    this.wallStartNanos = System.nanoTime();
  }

  public int serverIndex(ServerName sn) {
    return servers.indexOf(sn);
  }

  public Snapshot take(String kind, long traceUs) throws IOException {
    Snapshot s = new Snapshot();
    s.index = taken.size();
    s.kind = kind;
    s.traceUs = traceUs;
    s.wallSeconds = (System.nanoTime() - wallStartNanos) / 1e9;
    s.tracked = tracker.take();
    for (int i = 0; i < servers.size(); i++) {
      ServerName sn = servers.get(i);
      Map<String, RegionInfo> infos = new HashMap<>();
      for (RegionInfo ri : admin.getRegions(sn)) {
        infos.put(Bytes.toStringBinary(ri.getRegionName()), ri);
      }
      for (RegionMetrics m : admin.getRegionMetrics(sn)) {
        RegionInfo ri = infos.get(Bytes.toStringBinary(m.getRegionName()));
        if (ri == null) {
          continue; // closed between the two calls: the tracker has it
        }
        Snapshot.Region r = new Snapshot.Region();
        r.table = ri.getTable().getNameAsString();
        r.start = Bytes.toStringBinary(ri.getStartKey());
        r.end = Bytes.toStringBinary(ri.getEndKey());
        r.encoded = ri.getEncodedName();
        r.regionId = ri.getRegionId();
        r.server = i;
        r.read = m.getReadRequestCount();
        r.write = m.getWriteRequestCount();
        r.filtered = m.getFilteredReadRequestCount();
        r.storeFileMb = m.getStoreFileSize().get(Size.Unit.MEGABYTE);
        r.uncompressedMb = m.getUncompressedStoreFileSize().get(Size.Unit.MEGABYTE);
        r.memstoreMb = m.getMemStoreSize().get(Size.Unit.MEGABYTE);
        r.storeFiles = m.getStoreFileCount();
        RequestTracker.Entry e = s.tracked.get(r.encoded + "@" + i);
        if (e != null) {
          r.storeBytesExact = e.storeBytes;
          r.memstoreBytesExact = e.memstoreBytes;
        }
        s.regions.add(r);
      }
    }
    s.regions.sort((a, b) -> {
      int c = a.table.compareTo(b.table);
      return c != 0 ? c
        : Bytes.compareTo(Bytes.toBytesBinary(a.start), Bytes.toBytesBinary(b.start));
    });
    ClusterMetrics cm = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
    for (Map.Entry<ServerName, ServerMetrics> me : cm.getLiveServerMetrics().entrySet()) {
      ServerMetrics m = me.getValue();
      Snapshot.Server sv = new Snapshot.Server();
      sv.index = serverIndex(me.getKey());
      sv.name = me.getKey().getServerName();
      sv.requestCount = m.getRequestCount();
      sv.requestCountPerSecond = m.getRequestCountPerSecond();
      for (RegionMetrics rm : m.getRegionMetrics().values()) {
        sv.readRequests += rm.getReadRequestCount();
        sv.writeRequests += rm.getWriteRequestCount();
      }
      sv.regions = m.getRegionMetrics().size();
      sv.reportTimestamp = m.getReportTimestamp();
      s.servers.add(sv);
    }
    s.servers.sort((a, b) -> Integer.compare(a.index, b.index));
    taken.add(s);
    return s;
  }
}
