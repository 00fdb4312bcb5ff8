package org.regionsim.harness;

/**
 * A command-line argument or an input file that the harness refuses: the
 * message names the argument (or FILE:LINE) and what was wrong with it, and
 * the harness exits with status 2 without starting (or after stopping) the
 * cluster.
 */
public final class BadArgument extends Exception {
  private static final long serialVersionUID = 1L;

  public BadArgument(String message) {
    super(message);
  }
}
