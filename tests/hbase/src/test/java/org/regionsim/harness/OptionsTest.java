package org.regionsim.harness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.Arrays;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.Cell;
import org.junit.Test;

/** The command line, and the cells a put writes. */
public class OptionsTest {
  private static void refused(String expected, String... args) {
    try {
      Options.parse(args);
      fail("accepted: " + Arrays.toString(args));
    } catch (BadArgument e) {
      assertTrue(e.getMessage(), e.getMessage().startsWith(expected));
    }
  }

  @Test
  public void refusesBadArgumentsByName() {
    refused("--out: required", "--trace", "x");
    refused("--servers: 0 is out of range", "--trace", "x", "--out", "y", "--servers", "0");
    refused("--split-policy: 'busy'", "--trace", "x", "--out", "y", "--split-policy", "busy");
    refused("--balancer-times-us: times must not decrease", "--trace", "x", "--out", "y",
      "--balancer-times-us", "5,3");
    refused("--speed: 'fast' is not a number", "--trace", "x", "--out", "y", "--speed", "fast");
    refused("--nope: unknown option", "--trace", "x", "--out", "y", "--nope", "1");
    refused("--window-us: needs a value", "--trace", "x", "--out", "y", "--window-us");
  }

  @Test
  public void keepsTheCommandLineAndNamesHBaseClasses() throws Exception {
    Options o = Options.parse(new String[] { "--trace", "a b.csv", "--out=o.json",
      "--split-policy", "constant", "--balancer", "simple", "--balancer-times-us", "1,2" });
    assertEquals("tests/hbase/harness.sh --trace 'a b.csv' --out=o.json --split-policy constant"
      + " --balancer simple --balancer-times-us 1,2", o.command);
    assertEquals("org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy",
      o.splitPolicyClass());
    assertEquals("org.apache.hadoop.hbase.master.balancer.SimpleLoadBalancer", o.balancerClass());
    assertEquals(Arrays.asList(1L, 2L), o.balancerTimesUs);
  }

  @Test
  public void aPutHasRegionsimsCells() throws Exception {
    Options o = Options.parse(new String[] { "--trace", "x", "--out", "y" });
    Replayer r = new Replayer(o, null, null, null);
    Put one = r.put(new byte[] { 'k' }, -1, 0);
    assertEquals(1, one.size());
    Cell c = one.getFamilyCellMap().firstEntry().getValue().get(0);
    assertEquals(2, c.getQualifierLength());
    assertEquals(8, c.getValueLength());
    // 1 + 20 + family 1 + qualifier 2 + value 8: regionsim's 31 bytes beyond the key.
    assertEquals(1 + 31, org.apache.hadoop.hbase.KeyValueUtil.copyToNewKeyValue(c).getLength());
    Put ten = r.put(new byte[] { 'k' }, 103, 10);
    assertEquals(10, ten.size());
    int total = 0;
    for (Cell x : ten.getFamilyCellMap().firstEntry().getValue()) {
      total += x.getValueLength();
    }
    assertEquals(103, total);
  }
}
