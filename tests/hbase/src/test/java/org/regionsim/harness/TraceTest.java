package org.regionsim.harness;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Test;

/** The trace reader: regionsim's dialect, and its refusals naming FILE:LINE. */
public class TraceTest {
  private static String file(String text) throws IOException {
    Path p = Files.createTempFile("trace", ".csv");
    p.toFile().deleteOnExit();
    Files.write(p, text.getBytes(StandardCharsets.ISO_8859_1));
    return p.toString();
  }

  @Test
  public void readsRegionsimsDialect() throws Exception {
    Trace t = Trace.read(file("# a comment\ntime,op,key,bytes,cells\n\n0,put,user1,100,10\r\n"
      + "5,READ,\\x00\\xFFz\n7,scan,\"a,b\",50\n9,Insert,k\n9,delete,k\n12,readmodifywrite,k,3\n"),
      100);
    assertEquals(6, t.size);
    assertEquals(Trace.PUT, t.kind[0]);
    assertEquals(100, t.amount[0]);
    assertEquals(10, t.cells[0]);
    assertEquals(Trace.GET, t.kind[1]);
    assertArrayEquals(new byte[] { 0, (byte) 0xFF, 'z' }, t.key[1]);
    assertEquals(Trace.SCAN, t.kind[2]);
    assertArrayEquals("a,b".getBytes(StandardCharsets.US_ASCII), t.key[2]);
    assertEquals(50, t.amount[2]);
    assertEquals(Trace.PUT, t.kind[3]);
    assertEquals(-1, t.amount[3]);
    assertEquals(0, t.cells[3]);
    assertEquals(Trace.DELETE, t.kind[4]);
    assertEquals(Trace.RMW, t.kind[5]);
    assertEquals(12, t.lastTimeUs());
  }

  @Test
  public void readsTsv() throws Exception {
    Trace t = Trace.read(file("time\top\tkey\n3\tput\ta,b\n"), 10);
    assertEquals(1, t.size);
    assertArrayEquals("a,b".getBytes(StandardCharsets.US_ASCII), t.key[0]);
  }

  private static void refused(String text, long maxOps, String expected) throws IOException {
    String path = file(text);
    try {
      Trace.read(path, maxOps);
      fail("accepted: " + text);
    } catch (BadArgument e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(path + ":"));
      assertTrue(e.getMessage(), e.getMessage().contains(expected));
    }
  }

  @Test
  public void refusesBadLinesWithTheirLine() throws Exception {
    refused("0,put,a\n1,scan,a\n", 10, ":2: a scan needs its rows");
    refused("0,put,a\n1,scan,a,0\n", 10, ":2: rows");
    refused("5,put,a\n4,put,b\n", 10, ":2: time 4 is before");
    refused("0,upsert,a\n", 10, ":1: op");
    refused("x,put,a\n", 10, ":1: time");
    refused("0,get,a,1,2\n", 10, ":1: cells on a get");
    refused("0,put\n", 10, ":1: expected time,op,key");
    refused("0,put,\"a\n", 10, ":1: a quoted field is not closed");
    refused("0,put,a\n1,put,b\n2,put,c\n", 2, ":3: the trace has more than --max-ops 2");
  }
}
