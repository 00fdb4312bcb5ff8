package org.regionsim.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.VersionInfo;

/**
 * Measures how HBase counts requests, on the running release: what one
 * operation adds to the table's read and write request counts
 * (RegionMetrics, summed over the table's regions). The comparison with
 * regionsim leans on these: a Put is one write request whatever its cells
 * (HRegion.batchMutate adds batchOp.size(), the mutations of the batch), a
 * Get one read request, a scan one read request per RegionScannerImpl
 * .nextRaw call (RegionScannerImpl.nextRaw: region.addReadRequestsCount(1)),
 * which RSRpcServices.scan makes once per row it returns, plus one when a
 * region ends before the scan's limit. The probe prints what it measures;
 * it asserts nothing (tests/hbase/README.md gives the figures of 2.6.3).
 *
 * Table: rows row000..row099, one cell each, in two regions split at
 * row050, on one region server.
 */
public final class CounterProbe {
  private CounterProbe() {
  }

  public static void main(String[] argv) {
    int code = 0;
    try {
      probe();
    } catch (Throwable e) {
      System.err.println("probe: the cluster failed: " + e);
      e.printStackTrace();
      code = 1;
    }
    System.out.flush();
    Runtime.getRuntime().halt(code);
  }

  private static long[] counts(Admin admin, ServerName sn, TableName t) throws IOException {
    long[] rw = new long[2];
    for (RegionMetrics m : admin.getRegionMetrics(sn, t)) {
      rw[0] += m.getReadRequestCount();
      rw[1] += m.getWriteRequestCount();
    }
    return rw;
  }

  private interface Op {
    void run() throws IOException;
  }

  private static void measure(Admin admin, ServerName sn, TableName t, String what, Op op)
    throws IOException {
    long[] a = counts(admin, sn, t);
    op.run();
    long[] b = counts(admin, sn, t);
    System.out.printf("%-58s reads +%d  writes +%d%n", what, b[0] - a[0], b[1] - a[1]);
  }

  private static byte[] row(int i) {
    return Bytes.toBytes(String.format("row%03d", i));
  }

  static void probe() throws Exception {
    Options o = Options.parse(new String[] { "--trace", "-", "--out", "-", "--servers", "1" });
    try (Cluster c = Cluster.start(o)) {
      System.out.println("HBase " + VersionInfo.getVersion() + " (" + VersionInfo.getRevision()
        + "), one region server, table p split at row050");
      Admin admin = c.admin();
      TableName tn = TableName.valueOf("p");
      admin.createTable(TableDescriptorBuilder.newBuilder(tn)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(Replayer.FAMILY)).build(),
        new byte[][] { row(50) });
      c.util.waitTableAvailable(tn);
      ServerName sn = c.sortedServerNames().get(0);
      byte[] q = { 0, 0 };
      try (Table t = c.connection().getTable(tn)) {
        measure(admin, sn, tn, "100 single-cell Puts, one Table.put(List) call", () -> {
          List<Put> puts = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            puts.add(new Put(row(i)).addColumn(Replayer.FAMILY, q, new byte[8]));
          }
          t.put(puts);
        });
        measure(admin, sn, tn, "1 Put of 1 cell", () -> t.put(
          new Put(row(1)).addColumn(Replayer.FAMILY, q, new byte[8])));
        measure(admin, sn, tn, "1 Put of 10 cells (one row)", () -> {
          Put p = new Put(row(2));
          for (int i = 0; i < 10; i++) {
            p.addColumn(Replayer.FAMILY, new byte[] { 0, (byte) i }, new byte[8]);
          }
          t.put(p);
        });
        measure(admin, sn, tn, "1 Delete of a row", () -> t.delete(new Delete(row(3))));
        measure(admin, sn, tn, "1 Get of an existing row", () -> t.get(new Get(row(10))));
        measure(admin, sn, tn, "1 Get of a missing row", () -> t.get(new Get(row(3))));
        for (int r : new int[] { 1, 2, 5, 10, 40 }) {
          measure(admin, sn, tn, "Scan from row000, limit " + r + ", caching " + r
            + " (in one region)", () -> scan(t, row(0), r));
        }
        measure(admin, sn, tn, "Scan from row045, limit 10, caching 10 (crosses row050)",
          () -> scan(t, row(45), 10));
        measure(admin, sn, tn, "Scan from row095, limit 10, caching 10 (table ends)",
          () -> scan(t, row(95), 10));
        measure(admin, sn, tn, "Scan from row049~ (no row left before row050), limit 3",
          () -> scan(t, Bytes.toBytes("row049~"), 3));
        measure(admin, sn, tn, "Scan from row060, limit 10, default caching",
          () -> {
            try (ResultScanner rs = t.getScanner(new Scan().withStartRow(row(60)).setLimit(10))) {
              while (rs.next() != null) {
                continue;
              }
            }
          });
      }
    }
  }

  private static void scan(Table t, byte[] from, int rows) throws IOException {
    Scan s = new Scan().withStartRow(from).setLimit(rows).setCaching(rows);
    try (ResultScanner rs = t.getScanner(s)) {
      int n = 0;
      while (n < rows && rs.next() != null) {
        n++;
      }
    }
  }
}
