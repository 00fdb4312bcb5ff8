package org.regionsim.harness;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.regionserver.HRegion;

/**
 * The mini cluster's region server, unchanged but for one observation: when
 * a region leaves it (HRegionServer.removeRegion, which the close handlers,
 * UnassignRegionHandler.process and CloseRegionHandler.process, call right
 * after HRegion.close), the region's final request counts are handed to
 * the request tracker before the region is forgotten. A split parent's
 * and a moved region's last writes are then counted exactly, not only up
 * to the tracker's last sample. Set as StartMiniClusterOption.rsClass; HBase
 * builds it by reflection, hence the static listener.
 */
public class ClosingRegionServer extends MiniHBaseCluster.MiniHBaseClusterRegionServer {
  /** Told of every region closed on any server of this JVM. */
  public interface Listener {
    void regionClosed(ClosingRegionServer server, HRegion region);
  }

  static volatile Listener listener;

  public ClosingRegionServer(Configuration conf) throws IOException, InterruptedException {
    super(conf);
  }

  @Override
  public boolean removeRegion(HRegion r, ServerName destination) {
    Listener l = listener;
    if (l != null) {
      l.regionClosed(this, r);
    }
    return super.removeRegion(r, destination);
  }
}
