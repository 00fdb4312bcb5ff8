package org.regionsim.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * Replays a trace against the table on a paced wall clock, with pauses.
 *
 * Clock: trace time t is due at wall time base + (t - traceBase) / speed.
 * The client never runs ahead: an operation waits until it is due; when
 * the client cannot keep up, an operation is issued late, and how late
 * ("behind", wall ms) is recorded, max and mean. A pause (a window's end or
 * a balancer time) flushes the writes, waits for the reads in flight, does
 * its work, and restarts the clock at the pause's trace time, so time
 * spent paused is not trace time.
 *
 * Writes (put, delete, the put of a readmodifywrite) go through one
 * BufferedMutator, flushed by the replay thread every --flush-ms (also
 * while it waits for the next operation) and at every pause, so buffered
 * writes reach the servers close to their time. Not the mutator's own
 * periodic flush: its timer thread takes the buffer, and a flush() that
 * finds the buffer empty returns at once without waiting for the timer's
 * writes in flight (BufferedMutatorImpl.doFlush: "someone has gotten the
 * ticker"), so a snapshot would miss them; measured: 2,001 of a window's
 * 10,000 writes counted in the next window at --speed 10. Reads (get, scan, readmodifywrite) run on a small pool of threads
 * (--threads), at most 4 per thread in flight, so a slow read does not
 * stall the writes behind it; a full pool holds the client back and shows
 * as "behind".
 *
 * A put writes CELLS cells (1 when the trace gives none) whose values
 * total BYTES (--value-bytes when the trace gives none), split as evenly
 * as whole bytes allow, in family 't', each with a distinct qualifier of
 * --qualifier-bytes bytes (big-endian: the cell's index in the put, or with
 * --qualifiers row its number among all the row's cells, so that a row
 * written again grows as an OpenTSDB row does): the cell sizes of
 * regionsim's model (docs/model.md "Keys, rows and cells",
 * engine/engine_ops.c cell_bytes), since region sizes decide the splits.
 * A delete is a Delete of the row (a DeleteFamily marker, no qualifier).
 */
public final class Replayer {
  static final byte[] FAMILY = { 't' };

  /** A pause of the replay clock at a trace time. */
  public interface PauseHandler {
    void pause(boolean window, long traceUs) throws IOException, InterruptedException;
  }

  private final Options o;
  private final Trace trace;
  private final Connection conn;
  private final TableName table;
  private final long[] opsByKind = new long[Trace.KIND_NAMES.length];
  private final AtomicLong writeErrors = new AtomicLong();
  private final AtomicLong readErrors = new AtomicLong();
  private final AtomicLong rowsScanned = new AtomicLong();
  private final AtomicLong mutationsSent = new AtomicLong();
  private final AtomicLong cellsSent = new AtomicLong();
  private volatile long clockUs;
  private final long flushNanos;
  private long lastFlush = System.nanoTime();
  private long unflushed;
  private double behindMaxMs;
  private double behindSumMs;
  private long behindCount;
  private double activeSeconds;
  private double pausedSeconds;
  private int pauses;

  public Replayer(Options o, Trace trace, Connection conn, TableName table) {
    this.o = o;
    this.trace = trace;
    this.conn = conn;
    this.table = table;
    this.flushNanos = o.flushMs * 1_000_000L;
  }

  /** The pause times: windows' ends (k * window, up to the last op) and balancer times, sorted. */
  List<long[]> pauses() {
    List<long[]> out = new ArrayList<>();
    for (long t = o.windowUs; t <= trace.lastTimeUs() && t > 0; t += o.windowUs) {
      out.add(new long[] { t, 0 });
    }
    for (long t : o.balancerTimesUs) {
      out.add(new long[] { t, 1 });
    }
    out.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    return out;
  }

  public void run(PauseHandler handler) throws IOException, InterruptedException {
    BufferedMutatorParams params = new BufferedMutatorParams(table)
      .listener((e, m) -> writeErrors.addAndGet(e.getNumExceptions()));
    ExecutorService readers = Executors.newFixedThreadPool(o.threads, r -> {
      Thread t = new Thread(r, "regionsim-reader");
      t.setDaemon(true);
      return t;
    });
    Semaphore inFlight = new Semaphore(o.threads * 4);
    ThreadLocal<Table> tables = ThreadLocal.withInitial(() -> {
      try {
        return conn.getTable(table);
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    List<long[]> events = pauses();
    try (BufferedMutator mutator = conn.getBufferedMutator(params)) {
      long base = System.nanoTime();
      long traceBase = 0;
      int ev = 0;
      for (int i = 0; i < trace.size; i++) {
        long t = trace.timeUs[i];
        while (ev < events.size() && events.get(ev)[0] <= t) {
          long[] p = events.get(ev++);
          activeSeconds += (System.nanoTime() - base) / 1e9;
          pause(mutator, inFlight, handler, p[1] == 0, p[0]);
          base = System.nanoTime();
          traceBase = p[0];
        }
        long due = base + (long) ((t - traceBase) * 1000.0 / o.speed);
        long now = System.nanoTime();
        while (true) {
          if (unflushed > 0 && now - lastFlush >= flushNanos) {
            flush(mutator);
            now = System.nanoTime();
          }
          if (now >= due) {
            break;
          }
          long wake = unflushed > 0 ? Math.min(due, lastFlush + flushNanos) : due;
          LockSupport.parkNanos(Math.max(1, wake - now));
          now = System.nanoTime();
        }
        double behind = (now - due) / 1e6;
        behindMaxMs = Math.max(behindMaxMs, behind);
        behindSumMs += behind;
        behindCount++;
        clockUs = t;
        issue(i, mutator, readers, inFlight, tables);
      }
      activeSeconds += (System.nanoTime() - base) / 1e9;
      while (ev < events.size()) {
        long[] p = events.get(ev++);
        pause(mutator, inFlight, handler, p[1] == 0, p[0]);
      }
      drain(mutator, inFlight);
    } finally {
      readers.shutdownNow();
      readers.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private void flush(BufferedMutator mutator) throws IOException {
    try {
      mutator.flush();
    } catch (RetriesExhaustedWithDetailsException e) {
      writeErrors.addAndGet(e.getNumExceptions());
    }
    unflushed = 0;
    lastFlush = System.nanoTime();
  }

  private void pause(BufferedMutator mutator, Semaphore inFlight, PauseHandler handler,
    boolean window, long traceUs) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    clockUs = traceUs;
    drain(mutator, inFlight);
    handler.pause(window, traceUs);
    pausedSeconds += (System.nanoTime() - t0) / 1e9;
    pauses++;
  }

  /** Flushes the buffered writes and waits for every read in flight. */
  private void drain(BufferedMutator mutator, Semaphore inFlight)
    throws IOException, InterruptedException {
    int all = o.threads * 4;
    inFlight.acquire(all); // the reads first: a readmodifywrite's put joins the buffer
    inFlight.release(all);
    flush(mutator);
  }

  private void issue(int i, BufferedMutator mutator, ExecutorService readers, Semaphore inFlight,
    ThreadLocal<Table> tables) throws IOException, InterruptedException {
    byte k = trace.kind[i];
    byte[] row = trace.key[i];
    opsByKind[k]++;
    if (k == Trace.PUT) {
      mutate(mutator, put(row, trace.amount[i], trace.cells[i]));
      unflushed++;
      return;
    }
    if (k == Trace.DELETE) {
      mutate(mutator, new Delete(row));
      unflushed++;
      return;
    }
    if (k == Trace.RMW) {
      unflushed++; // its put joins the buffer from a reader thread
    }
    int amount = trace.amount[i];
    int cells = trace.cells[i];
    inFlight.acquire();
    readers.execute(() -> {
      try {
        Table tb = tables.get();
        if (k == Trace.GET) {
          tb.get(new Get(row));
        } else if (k == Trace.SCAN) {
          scan(tb, row, amount);
        } else {
          tb.get(new Get(row));
          mutate(mutator, put(row, amount, cells));
        }
      } catch (IOException | RuntimeException e) {
        readErrors.incrementAndGet();
      } finally {
        inFlight.release();
      }
    });
  }

  private void mutate(BufferedMutator mutator, org.apache.hadoop.hbase.client.Mutation m)
    throws IOException {
    try {
      mutator.mutate(m);
      mutationsSent.incrementAndGet();
      cellsSent.addAndGet(m.size());
    } catch (RetriesExhaustedWithDetailsException e) {
      writeErrors.addAndGet(e.getNumExceptions());
    }
  }

  private void scan(Table tb, byte[] row, int rows) throws IOException {
    Scan s = new Scan().withStartRow(row).setLimit(rows).setCaching(rows);
    try (ResultScanner rs = tb.getScanner(s)) {
      int n = 0;
      Result r;
      while (n < rows && (r = rs.next()) != null) {
        n++;
      }
      rowsScanned.addAndGet(n);
    }
  }

  /** Cells written so far to each row (--qualifiers row). */
  private final java.util.concurrent.ConcurrentHashMap<java.nio.ByteBuffer, Integer> rowCells =
    new java.util.concurrent.ConcurrentHashMap<>();

  /** A put of regionsim's cells: see the class comment. */
  Put put(byte[] row, int bytes, int cells) {
    int n = Math.max(1, cells);
    long total = bytes >= 0 ? bytes : o.valueBytes;
    Put p = new Put(row);
    int first = 0;
    if (o.qualifiers.equals("row")) {
      first = rowCells.merge(java.nio.ByteBuffer.wrap(row.clone()), n, Integer::sum) - n;
    }
    for (int c = 0; c < n; c++) {
      byte[] q = new byte[o.qualifierBytes];
      for (int b = 0, v = first + c; b < q.length; b++, v >>>= 8) {
        q[q.length - 1 - b] = (byte) v;
      }
      int size = (int) (total / n + (c < total % n ? 1 : 0));
      p.addColumn(FAMILY, q, new byte[size]);
    }
    return p;
  }

  public JsonObject json() {
    JsonObject r = new JsonObject();
    JsonObject kinds = new JsonObject();
    long ops = 0;
    for (int k = 0; k < opsByKind.length; k++) {
      kinds.addProperty(Trace.KIND_NAMES[k], opsByKind[k]);
      ops += opsByKind[k];
    }
    r.addProperty("ops", ops);
    r.add("ops_by_kind", kinds);
    r.addProperty("mutations_sent", mutationsSent.get());
    r.addProperty("cells_sent", cellsSent.get());
    r.addProperty("rows_scanned", rowsScanned.get());
    r.addProperty("write_errors", writeErrors.get());
    r.addProperty("read_errors", readErrors.get());
    r.addProperty("speed", o.speed);
    r.addProperty("trace_seconds", trace.lastTimeUs() / 1e6);
    r.addProperty("active_wall_seconds", activeSeconds);
    r.addProperty("paused_wall_seconds", pausedSeconds);
    r.addProperty("pauses", pauses);
    r.addProperty("ops_per_second", activeSeconds > 0 ? ops / activeSeconds : 0);
    r.addProperty("behind_max_ms", behindMaxMs);
    r.addProperty("behind_mean_ms", behindCount > 0 ? behindSumMs / behindCount : 0);
    return r;
  }

  /** The trace time of the operation issued last (or of the pause under way). */
  public long traceClockUs() {
    return clockUs;
  }

  public long mutationsSent() {
    return mutationsSent.get();
  }

  public long writeErrors() {
    return writeErrors.get();
  }
}
