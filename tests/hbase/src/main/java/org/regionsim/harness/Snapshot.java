package org.regionsim.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * What the cluster looked like at one pause of the replay: every open
 * region (all tables, system ones included) with the counters and sizes
 * Admin.getRegionMetrics gives, every server's ServerMetrics, and the
 * request tracker's counters of every region instance seen since the
 * previous snapshot (closed ones included), from which Analysis computes
 * the windows' deltas.
 */
public final class Snapshot {
  /** One open region as the Admin API reports it. */
  public static final class Region {
    public String table;
    public String start;
    public String end;
    public String encoded;
    public long regionId;
    public int server;
    public long read;
    public long write;
    public long filtered;
    public double storeFileMb;
    public double uncompressedMb;
    public double memstoreMb;
    public int storeFiles;
    public long storeBytesExact = -1;
    public long memstoreBytesExact = -1;

    JsonObject json() {
      JsonObject o = new JsonObject();
      o.addProperty("table", table);
      o.addProperty("start", start);
      o.addProperty("end", end);
      o.addProperty("encoded", encoded);
      o.addProperty("region_id", regionId);
      o.addProperty("server", server);
      o.addProperty("read_requests", read);
      o.addProperty("write_requests", write);
      o.addProperty("filtered_read_requests", filtered);
      o.addProperty("store_file_size_mb", storeFileMb);
      o.addProperty("uncompressed_store_file_size_mb", uncompressedMb);
      o.addProperty("memstore_size_mb", memstoreMb);
      // The same in bytes: whole MB from the API (RegionLoad's *_MB fields), times 1048576.
      // The server rounds (HRegionServer.roundSize): 0 stays 0, under 1 MB is 1, else floor.
      o.addProperty("store_file_size_api_bytes", (long) (storeFileMb * 1048576));
      o.addProperty("uncompressed_store_file_size_api_bytes", (long) (uncompressedMb * 1048576));
      o.addProperty("memstore_size_api_bytes", (long) (memstoreMb * 1048576));
      o.addProperty("store_file_count", storeFiles);
      o.addProperty("store_bytes_exact", storeBytesExact);
      o.addProperty("memstore_bytes_exact", memstoreBytesExact);
      return o;
    }
  }

  /** One server as ServerMetrics (its last heartbeat to the master) reports it. */
  public static final class Server {
    public int index;
    public String name;
    public long requestCount;
    public long requestCountPerSecond;
    public long readRequests;
    public long writeRequests;
    public int regions;
    public long reportTimestamp;

    JsonObject json() {
      JsonObject o = new JsonObject();
      o.addProperty("server", index);
      o.addProperty("name", name);
      o.addProperty("request_count", requestCount);
      o.addProperty("request_count_per_second", requestCountPerSecond);
      o.addProperty("read_requests", readRequests);
      o.addProperty("write_requests", writeRequests);
      o.addProperty("regions", regions);
      o.addProperty("report_timestamp_ms", reportTimestamp);
      return o;
    }
  }

  public int index;
  public String kind;
  public long traceUs;
  public double wallSeconds;
  public final List<Region> regions = new ArrayList<>();
  public final List<Server> servers = new ArrayList<>();
  public Map<String, RequestTracker.Entry> tracked;

  public JsonObject json() {
    JsonObject o = new JsonObject();
    o.addProperty("index", index);
    o.addProperty("kind", kind);
    o.addProperty("trace_us", traceUs);
    o.addProperty("wall_seconds", wallSeconds);
    JsonArray rs = new JsonArray();
    for (Region r : regions) {
      rs.add(r.json());
    }
    o.add("regions", rs);
    JsonArray ss = new JsonArray();
    for (Server s : servers) {
      ss.add(s.json());
    }
    o.add("servers", ss);
    JsonArray closed = new JsonArray();
    for (RequestTracker.Entry e : tracked.values()) {
      if (!e.open) {
        JsonObject c = new JsonObject();
        c.addProperty("table", e.table);
        c.addProperty("start", e.start);
        c.addProperty("end", e.end);
        c.addProperty("encoded", e.encoded);
        c.addProperty("server", e.server);
        c.addProperty("read_requests", e.read);
        c.addProperty("write_requests", e.write);
        c.addProperty("store_bytes_exact", e.storeBytes);
        c.addProperty("counted_at_close", e.closedExactly);
        closed.add(c);
      }
    }
    o.add("closed_since_previous", closed);
    return o;
  }
}
