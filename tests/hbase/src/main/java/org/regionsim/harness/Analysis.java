package org.regionsim.harness;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * What the snapshots say once the run is over: the splits and the
 * windows' per-server request deltas.
 *
 * Splits: between two consecutive snapshots, a region (table, start, end)
 * that is gone and whose key range the new regions tile exactly was split;
 * its split keys are the new regions' inner boundaries (one key for a
 * split into two daughters; more if a daughter split again before the
 * snapshot). A change that no such tiling explains (a merge) is listed as
 * unexplained.
 *
 * Deltas: per region instance (encoded name on a server; the request
 * tracker's counters, closed instances included), current - previous when
 * current >= previous, else current: a region's counters start again at 0
 * when it is reopened (a split's daughters are new regions, a moved region
 * reopens on its new server; HRegionServer.removeRegion retains the counts
 * only for a reopen on the same server). A window is the trace time from
 * one window snapshot to the next (start, each --window-us boundary, end);
 * the deltas of every snapshot interval inside it are added up per server.
 */
public final class Analysis {
  private Analysis() {
  }

  private static byte[] key(String shell) {
    return Bytes.toBytesBinary(shell);
  }

  /** Is [s, e) within [ps, pe)? An empty end is unbounded. */
  private static boolean within(String s, String e, String ps, String pe) {
    boolean startOk = Bytes.compareTo(key(s), key(ps)) >= 0;
    boolean endOk = pe.isEmpty() || (!e.isEmpty() && Bytes.compareTo(key(e), key(pe)) <= 0);
    return startOk && endOk;
  }

  public static JsonArray splits(List<Snapshot> snaps, JsonArray unexplained) {
    JsonArray out = new JsonArray();
    for (int i = 1; i < snaps.size(); i++) {
      Snapshot prev = snaps.get(i - 1);
      Snapshot cur = snaps.get(i);
      Set<String> before = new HashSet<>();
      Set<String> now = new HashSet<>();
      for (Snapshot.Region r : prev.regions) {
        before.add(r.table + "\u0000" + r.start + "\u0000" + r.end);
      }
      for (Snapshot.Region r : cur.regions) {
        now.add(r.table + "\u0000" + r.start + "\u0000" + r.end);
      }
      List<Snapshot.Region> born = new ArrayList<>();
      for (Snapshot.Region r : cur.regions) {
        if (!before.contains(r.table + "\u0000" + r.start + "\u0000" + r.end)) {
          born.add(r);
        }
      }
      Set<Snapshot.Region> explained = new HashSet<>();
      for (Snapshot.Region p : prev.regions) {
        if (now.contains(p.table + "\u0000" + p.start + "\u0000" + p.end)) {
          continue;
        }
        List<Snapshot.Region> kids = new ArrayList<>();
        for (Snapshot.Region b : born) {
          if (b.table.equals(p.table) && within(b.start, b.end, p.start, p.end)) {
            kids.add(b);
          }
        }
        kids.sort((a, b) -> Bytes.compareTo(key(a.start), key(b.start)));
        boolean tiles = kids.size() >= 2 && kids.get(0).start.equals(p.start)
          && kids.get(kids.size() - 1).end.equals(p.end);
        for (int k = 1; tiles && k < kids.size(); k++) {
          tiles = kids.get(k - 1).end.equals(kids.get(k).start);
        }
        JsonObject o = new JsonObject();
        o.addProperty("table", p.table);
        o.addProperty("parent_start", p.start);
        o.addProperty("parent_end", p.end);
        o.addProperty("parent_encoded", p.encoded);
        o.addProperty("parent_server", p.server);
        o.addProperty("snapshot", cur.index);
        o.addProperty("trace_us", cur.traceUs);
        if (!tiles) {
          unexplained.add(o);
          continue;
        }
        JsonArray keys = new JsonArray();
        JsonArray daughters = new JsonArray();
        for (int k = 0; k < kids.size(); k++) {
          if (k > 0) {
            keys.add(kids.get(k).start);
          }
          JsonObject d = new JsonObject();
          d.addProperty("start", kids.get(k).start);
          d.addProperty("end", kids.get(k).end);
          d.addProperty("server", kids.get(k).server);
          d.addProperty("encoded", kids.get(k).encoded);
          RequestTracker.Entry seen = cur.tracked.get(kids.get(k).encoded + "@" + kids.get(k).server);
          if (seen != null) {
            d.addProperty("first_seen_trace_us", seen.firstSeenUs);
          }
          daughters.add(d);
          explained.add(kids.get(k));
        }
        long seen = Long.MAX_VALUE;
        for (Snapshot.Region kid : kids) {
          RequestTracker.Entry e = cur.tracked.get(kid.encoded + "@" + kid.server);
          seen = Math.min(seen, e == null ? Long.MAX_VALUE : e.firstSeenUs);
        }
        if (seen != Long.MAX_VALUE) {
          o.addProperty("seen_trace_us", seen);
        }
        o.add("split_keys", keys);
        o.add("daughters", daughters);
        out.add(o);
      }
      for (Snapshot.Region b : born) {
        if (!explained.contains(b)) {
          JsonObject o = new JsonObject();
          o.addProperty("table", b.table);
          o.addProperty("new_start", b.start);
          o.addProperty("new_end", b.end);
          o.addProperty("snapshot", cur.index);
          o.addProperty("trace_us", cur.traceUs);
          unexplained.add(o);
        }
      }
    }
    return out;
  }

  /** Per window per server: the user table's and all tables' read and write deltas. */
  public static JsonArray windows(List<Snapshot> snaps, String table, int nservers) {
    JsonArray out = new JsonArray();
    Map<String, RequestTracker.Entry> prev = new HashMap<>();
    long[][] acc = new long[nservers][4];
    long windowStart = 0;
    int firstSnap = 0;
    for (Snapshot s : snaps) {
      Map<String, RequestTracker.Entry> cur = s.tracked;
      for (Map.Entry<String, RequestTracker.Entry> me : cur.entrySet()) {
        RequestTracker.Entry c = me.getValue();
        RequestTracker.Entry p = prev.get(me.getKey());
        long dw = delta(c.write, p == null ? 0 : p.write);
        long dr = delta(c.read, p == null ? 0 : p.read);
        boolean user = c.table.equals(table);
        if (user) {
          acc[c.server][0] += dw;
          acc[c.server][1] += dr;
        }
        acc[c.server][2] += dw;
        acc[c.server][3] += dr;
      }
      prev = cur;
      boolean closesWindow = s.kind.equals("window") || s.kind.equals("end");
      if (s.index == 0) {
        acc = new long[nservers][4]; // the start's counts are the table's creation: no window's
        continue;
      }
      if (!closesWindow) {
        continue;
      }
      JsonObject w = new JsonObject();
      w.addProperty("window", out.size());
      w.addProperty("from_us", windowStart);
      w.addProperty("to_us", s.traceUs);
      w.addProperty("from_snapshot", firstSnap);
      w.addProperty("to_snapshot", s.index);
      JsonArray servers = new JsonArray();
      for (int i = 0; i < nservers; i++) {
        JsonObject so = new JsonObject();
        so.addProperty("server", i);
        so.addProperty("write_requests", acc[i][0]);
        so.addProperty("read_requests", acc[i][1]);
        so.addProperty("write_requests_all_tables", acc[i][2]);
        so.addProperty("read_requests_all_tables", acc[i][3]);
        servers.add(so);
        acc[i] = new long[4];
      }
      w.add("servers", servers);
      out.add(w);
      windowStart = s.traceUs;
      firstSnap = s.index;
    }
    return out;
  }

  static long delta(long current, long previous) {
    return current >= previous ? current - previous : current;
  }
}
