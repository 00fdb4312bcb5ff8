package org.regionsim.harness;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Samples every open region's request counters in this JVM, often, so that
 * a region closed between two snapshots (a split parent, a moved region)
 * still has its counts: the last values sampled before it closed.
 *
 * Why: Admin.getRegionMetrics only lists open regions, and a split
 * parent's counters go with it; with 60-second windows and splits every few
 * seconds, most of a window's writes would be unaccounted for. The counters
 * are the ones RegionMetrics reports (HRegion.getReadRequestsCount and
 * getWriteRequestsCount, which RSRpcServices/HRegionServer.createRegionLoad
 * puts in the RegionLoad), read directly from the HRegion objects of the
 * mini cluster's servers (no RPC). A region closing is reported by its
 * server (ClosingRegionServer) with its final counts, so nothing is lost
 * to the sampling period; the samples date new regions and keep the sizes.
 *
 * Also sampled: each region's exact store file bytes (the sum of
 * HStore.getSize(), the figure ConstantSizeRegionSplitPolicy compares with
 * the max file size) and memstore data bytes, since RegionMetrics gives
 * those in whole megabytes.
 *
 * Each instance's first sighting is stamped with the replay's trace time
 * (the time of the operation issued last), which dates a split to within
 * a sample period instead of a window.
 *
 * A region instance is keyed "ENCODED@SERVER_INDEX". take() returns every
 * instance seen since the previous take() with its latest values and
 * forgets those no longer open.
 */
public final class RequestTracker implements AutoCloseable, ClosingRegionServer.Listener {
  /** One region instance's latest values. */
  public static final class Entry {
    public String table;
    public String start;
    public String end;
    public String encoded;
    public int server;
    public long read;
    public long write;
    public long filtered;
    public long storeBytes;
    public long memstoreBytes;
    public int storeFiles;
    public boolean open;
    /** The replay's trace time when the tracker first saw this instance open. */
    public long firstSeenUs;
    /** Closed, and its counts read at the close (not only at the last sample). */
    public boolean closedExactly;
  }

  private final List<HRegionServer> servers;
  private final java.util.function.LongSupplier traceClock;
  private final Map<String, Entry> entries = new HashMap<>();
  private final Thread thread;
  private volatile boolean stopping;
  public long samples;

  public RequestTracker(List<HRegionServer> sortedServers, int periodMs,
    java.util.function.LongSupplier traceClock) {
    this.servers = sortedServers;
    this.traceClock = traceClock;
    this.thread = new Thread(() -> loop(periodMs), "regionsim-request-tracker");
    this.thread.setDaemon(true);
  }

  public void start() {
    ClosingRegionServer.listener = this;
    sample();
    thread.start();
  }

  private void loop(int periodMs) {
    while (!stopping) {
      try {
        Thread.sleep(periodMs);
      } catch (InterruptedException e) {
        return;
      }
      sample();
    }
  }

  /** A region closed on a server: its counts are final (ClosingRegionServer). */
  @Override
  public synchronized void regionClosed(ClosingRegionServer server, HRegion r) {
    int i = servers.indexOf(server);
    if (i >= 0) {
      Entry e = read(i, r);
      e.open = false;
      e.closedExactly = true;
    }
  }

  /** Reads every open region's counters now. */
  public synchronized void sample() {
    for (Entry e : entries.values()) {
      e.open = false;
    }
    for (int i = 0; i < servers.size(); i++) {
      for (HRegion r : servers.get(i).getRegions()) {
        if (r.isClosed()) {
          continue;
        }
        read(i, r).open = true;
      }
    }
    samples++;
  }

  /** The entry of region r on server i, its values read now. */
  private Entry read(int i, HRegion r) {
    RegionInfo ri = r.getRegionInfo();
    String key = ri.getEncodedName() + "@" + i;
    Entry e = entries.get(key);
    if (e == null) {
      e = new Entry();
      e.table = ri.getTable().getNameAsString();
      e.start = Bytes.toStringBinary(ri.getStartKey());
      e.end = Bytes.toStringBinary(ri.getEndKey());
      e.encoded = ri.getEncodedName();
      e.server = i;
      e.firstSeenUs = traceClock.getAsLong();
      entries.put(key, e);
    }
    e.read = r.getReadRequestsCount();
    e.write = r.getWriteRequestsCount();
    e.filtered = r.getFilteredReadRequestsCount();
    long bytes = 0;
    int files = 0;
    for (HStore s : r.getStores()) {
      bytes += s.getSize();
      files += s.getStorefilesCount();
    }
    e.storeBytes = bytes;
    e.storeFiles = files;
    e.memstoreBytes = r.getMemStoreDataSize();
    return e;
  }

  /** Samples now, returns every instance seen since the previous take, forgets the closed. */
  public synchronized Map<String, Entry> take() {
    sample();
    Map<String, Entry> out = new LinkedHashMap<>();
    for (Map.Entry<String, Entry> me : entries.entrySet()) {
      Entry e = me.getValue();
      Entry copy = new Entry();
      copy.table = e.table;
      copy.start = e.start;
      copy.end = e.end;
      copy.encoded = e.encoded;
      copy.server = e.server;
      copy.read = e.read;
      copy.write = e.write;
      copy.filtered = e.filtered;
      copy.storeBytes = e.storeBytes;
      copy.memstoreBytes = e.memstoreBytes;
      copy.storeFiles = e.storeFiles;
      copy.open = e.open;
      copy.firstSeenUs = e.firstSeenUs;
      copy.closedExactly = e.closedExactly;
      out.put(me.getKey(), copy);
    }
    entries.values().removeIf(e -> !e.open);
    return out;
  }

  @Override
  public void close() {
    ClosingRegionServer.listener = null;
    stopping = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
