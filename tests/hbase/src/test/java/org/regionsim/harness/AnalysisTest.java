package org.regionsim.harness;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.junit.Test;

/** Splits from region sets, and window deltas from counters that restart. */
public class AnalysisTest {
  private static Snapshot snap(int index, String kind, long us) {
    Snapshot s = new Snapshot();
    s.index = index;
    s.kind = kind;
    s.traceUs = us;
    s.tracked = new LinkedHashMap<>();
    return s;
  }

  private static void region(Snapshot s, String start, String end, int server, String encoded) {
    Snapshot.Region r = new Snapshot.Region();
    r.table = "t";
    r.start = start;
    r.end = end;
    r.server = server;
    r.encoded = encoded;
    s.regions.add(r);
  }

  private static void tracked(Snapshot s, String encoded, int server, long read, long write) {
    RequestTracker.Entry e = new RequestTracker.Entry();
    e.table = "t";
    e.encoded = encoded;
    e.server = server;
    e.read = read;
    e.write = write;
    s.tracked.put(encoded + "@" + server, e);
  }

  @Test
  public void deltaRestartsWhenACounterGoesBack() {
    assertEquals(5, Analysis.delta(15, 10));
    assertEquals(3, Analysis.delta(3, 10));
    assertEquals(0, Analysis.delta(10, 10));
  }

  @Test
  public void findsTwoWayAndThreeWaySplitsAndLeavesMergesUnexplained() {
    List<Snapshot> snaps = new ArrayList<>();
    Snapshot a = snap(0, "start", 0);
    region(a, "", "m", 0, "p1");
    region(a, "m", "", 1, "p2");
    Snapshot b = snap(1, "window", 10);
    region(b, "", "f", 0, "d1");
    region(b, "f", "m", 0, "d2");
    region(b, "m", "p", 1, "d3");
    region(b, "p", "t", 1, "d4");
    region(b, "t", "", 1, "d5");
    Snapshot c = snap(2, "end", 20);
    region(c, "", "m", 0, "g1");
    region(c, "m", "p", 1, "d3");
    region(c, "p", "t", 1, "d4");
    region(c, "t", "", 1, "d5");
    snaps.add(a);
    snaps.add(b);
    snaps.add(c);
    JsonArray unexplained = new JsonArray();
    JsonArray splits = Analysis.splits(snaps, unexplained);
    assertEquals(2, splits.size());
    JsonObject first = splits.get(0).getAsJsonObject();
    assertEquals("", first.get("parent_start").getAsString());
    assertEquals("[\"f\"]", first.get("split_keys").toString());
    JsonObject second = splits.get(1).getAsJsonObject();
    assertEquals("[\"p\",\"t\"]", second.get("split_keys").toString());
    assertEquals(1, second.get("snapshot").getAsInt());
    // The merge of d1 and d2 into g1: two parents gone, one region born, none a split.
    assertEquals(3, unexplained.size());
  }

  @Test
  public void windowsAddDeltasPerServerAcrossReopens() {
    List<Snapshot> snaps = new ArrayList<>();
    Snapshot s0 = snap(0, "start", 0);
    tracked(s0, "r", 0, 1, 0); // the table's creation: no window's
    Snapshot s1 = snap(1, "window", 10);
    tracked(s1, "r", 0, 4, 100);
    Snapshot s2 = snap(2, "balancer-before", 15);
    tracked(s2, "r", 0, 4, 150);
    Snapshot s3 = snap(3, "balancer-after", 15);
    tracked(s3, "r", 0, 4, 150); // closed on 0 at the move
    tracked(s3, "r", 1, 0, 0); // reopened on 1: from 0
    Snapshot s4 = snap(4, "end", 20);
    tracked(s4, "r", 1, 2, 30);
    snaps.add(s0);
    snaps.add(s1);
    snaps.add(s2);
    snaps.add(s3);
    snaps.add(s4);
    JsonArray w = Analysis.windows(snaps, "t", 2);
    assertEquals(2, w.size());
    JsonArray w0 = w.get(0).getAsJsonObject().getAsJsonArray("servers");
    assertEquals(100, w0.get(0).getAsJsonObject().get("write_requests").getAsLong());
    assertEquals(3, w0.get(0).getAsJsonObject().get("read_requests").getAsLong());
    JsonArray w1 = w.get(1).getAsJsonObject().getAsJsonArray("servers");
    assertEquals(50, w1.get(0).getAsJsonObject().get("write_requests").getAsLong());
    assertEquals(30, w1.get(1).getAsJsonObject().get("write_requests").getAsLong());
    assertEquals(2, w1.get(1).getAsJsonObject().get("read_requests").getAsLong());
    assertEquals(10, w.get(1).getAsJsonObject().get("from_us").getAsLong());
  }
}
