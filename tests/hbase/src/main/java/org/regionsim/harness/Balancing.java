package org.regionsim.harness;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BalanceRequest;
import org.apache.hadoop.hbase.client.BalanceResponse;
import org.apache.hadoop.hbase.client.BalancerDecision;
import org.apache.hadoop.hbase.client.BalancerRejection;
import org.apache.hadoop.hbase.client.LogEntry;
import org.apache.hadoop.hbase.client.ServerType;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * One balancer run at a trace time, and the waits around it.
 *
 * Flushed writes first (the replayer's pause), then: wait until no region
 * is in transition (a split in progress would make HMaster.balance refuse
 * to run); wait two status intervals so the master's ServerMetrics (the
 * loads the stochastic balancer's cost functions read) include every
 * request sent before the pause; snapshot; Admin.balance(BalanceRequest
 * .defaultInstance()) (its BalanceResponse: ran, moves calculated and
 * executed); wait for no region in transition again; snapshot. The moves
 * are the diff of the two snapshots' region -> server maps, a region named
 * by table and start key; hbase:meta and hbase:namespace included. The
 * BalancerDecision and BalancerRejection ring buffers (newest first,
 * BalancerDecisionQueueService) are read before and after, and the entries
 * the run added are recorded.
 */
public final class Balancing {
  private static final int LOG_LIMIT = 250; // hbase.master.balancer.decision.queue.size default

  private final Admin admin;
  private final Snapshotter snapshots;
  private final int ritTimeoutMs;
  private final int statusIntervalMs;
  public final JsonArray runs = new JsonArray();
  public double ritWaitMaxSeconds;
  public int ritTimeouts;

  public Balancing(Admin admin, Snapshotter snapshots, int ritTimeoutMs, int statusIntervalMs) {
    this.admin = admin;
    this.snapshots = snapshots;
    this.ritTimeoutMs = ritTimeoutMs;
    this.statusIntervalMs = statusIntervalMs;
  }

  /** Waits until no region is in transition, at most the timeout; returns the seconds waited. */
  public double waitNoRegionInTransition() throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + ritTimeoutMs * 1_000_000L;
    while (true) {
      int rit = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
        .getRegionStatesInTransition().size();
      double waited = (System.nanoTime() - t0) / 1e9;
      if (rit == 0) {
        ritWaitMaxSeconds = Math.max(ritWaitMaxSeconds, waited);
        return waited;
      }
      if (System.nanoTime() > deadline) {
        ritTimeouts++;
        ritWaitMaxSeconds = Math.max(ritWaitMaxSeconds, waited);
        return -waited;
      }
      Thread.sleep(50);
    }
  }

  public void run(long traceUs) throws IOException, InterruptedException {
    JsonObject run = new JsonObject();
    run.addProperty("trace_us", traceUs);
    run.addProperty("rit_wait_before_seconds", waitNoRegionInTransition());
    Thread.sleep(2L * statusIntervalMs);
    run.addProperty("status_wait_seconds", 2.0 * statusIntervalMs / 1000.0);
    List<LogEntry> decisionsBefore = log("BALANCER_DECISION");
    List<LogEntry> rejectionsBefore = log("BALANCER_REJECTION");
    Snapshot before = snapshots.take("balancer-before", traceUs);
    long t0 = System.nanoTime();
    BalanceResponse r = admin.balance(BalanceRequest.defaultInstance());
    run.addProperty("balance_seconds", (System.nanoTime() - t0) / 1e9);
    run.addProperty("balancer_ran", r.isBalancerRan());
    run.addProperty("moves_calculated", r.getMovesCalculated());
    run.addProperty("moves_executed", r.getMovesExecuted());
    run.addProperty("rit_wait_after_seconds", waitNoRegionInTransition());
    Snapshot after = snapshots.take("balancer-after", traceUs);
    run.addProperty("snapshot_before", before.index);
    run.addProperty("snapshot_after", after.index);
    run.add("moves", moves(before, after));
    run.add("decisions", newDecisions(decisionsBefore, log("BALANCER_DECISION")));
    run.add("rejections", newRejections(rejectionsBefore, log("BALANCER_REJECTION")));
    runs.add(run);
  }

  private List<LogEntry> log(String type) throws IOException {
    return admin.getLogEntries(null, type, ServerType.MASTER, LOG_LIMIT, null);
  }

  /** Entries of `after` (newest first) beyond the ones `before` had. */
  private static List<LogEntry> added(List<LogEntry> before, List<LogEntry> after) {
    int n = after.size() - before.size();
    if (after.size() == LOG_LIMIT && n <= 0) {
      n = after.size(); // the ring buffer was full: cannot tell, keep all (noted in the README)
    }
    return after.subList(0, Math.max(0, n));
  }

  private static JsonArray newDecisions(List<LogEntry> before, List<LogEntry> after) {
    JsonArray out = new JsonArray();
    for (LogEntry e : added(before, after)) {
      BalancerDecision d = (BalancerDecision) e;
      JsonObject o = new JsonObject();
      o.addProperty("initial_function_costs", d.getInitialFunctionCosts());
      o.addProperty("final_function_costs", d.getFinalFunctionCosts());
      o.addProperty("initial_total_cost", d.getInitTotalCost());
      o.addProperty("computed_total_cost", d.getComputedTotalCost());
      o.addProperty("computed_steps", d.getComputedSteps());
      JsonArray plans = new JsonArray();
      for (String p : d.getRegionPlans()) {
        plans.add(p);
      }
      o.add("region_plans", plans);
      out.add(o);
    }
    return out;
  }

  private static JsonArray newRejections(List<LogEntry> before, List<LogEntry> after) {
    JsonArray out = new JsonArray();
    for (LogEntry e : added(before, after)) {
      BalancerRejection d = (BalancerRejection) e;
      JsonObject o = new JsonObject();
      o.addProperty("reason", d.getReason());
      JsonArray costs = new JsonArray();
      for (String c : d.getCostFuncInfoList()) {
        costs.add(c);
      }
      o.add("cost_functions", costs);
      out.add(o);
    }
    return out;
  }

  /** Regions (table and start key) whose server changed between two snapshots. */
  static JsonArray moves(Snapshot before, Snapshot after) {
    Map<String, Snapshot.Region> was = new TreeMap<>();
    for (Snapshot.Region r : before.regions) {
      was.put(r.table + " " + r.start, r);
    }
    JsonArray out = new JsonArray();
    for (Snapshot.Region r : after.regions) {
      Snapshot.Region b = was.get(r.table + " " + r.start);
      if (b != null && b.server != r.server) {
        JsonObject m = new JsonObject();
        m.addProperty("table", r.table);
        m.addProperty("start", r.start);
        m.addProperty("end", r.end);
        m.addProperty("encoded", r.encoded);
        m.addProperty("from", b.server);
        m.addProperty("to", r.server);
        out.add(m);
      }
    }
    return out;
  }
}
