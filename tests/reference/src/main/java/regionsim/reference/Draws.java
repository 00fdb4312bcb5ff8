/* Draws -- seeding the JDK's ThreadLocalRandom, and recovering the exact
 * random input an upstream generator consumed.
 *
 * YCSB draws every random number from ThreadLocalRandom.current(), which
 * cannot be seeded through any API. The thread's seed is the private field
 * java.lang.Thread.threadLocalRandomSeed (JDK 17); we set and read it by
 * reflection (the JVM needs --add-opens java.base/java.lang=ALL-UNNAMED).
 * To log what a generator call consumed, a caller reads the seed before and
 * after the call, then replays: restores the first seed, draws the values
 * directly from ThreadLocalRandom, and checks that the seed reached is the
 * one the generator left (so the count and kind of draws are confirmed).
 * Nothing here computes what YCSB computes: the generators do. */
package regionsim.reference;

import java.lang.reflect.Field;
import java.util.concurrent.ThreadLocalRandom;

final class Draws {
    private static final Field SEED = seedField();

    private Draws() {
    }

    private static Field seedField() {
        try {
            ThreadLocalRandom.current(); /* initialise this thread's generator */
            Field f = Thread.class.getDeclaredField("threadLocalRandomSeed");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Thread.threadLocalRandomSeed not reachable", e);
        }
    }

    static void setSeed(long seed) {
        try {
            SEED.setLong(Thread.currentThread(), seed);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static long seed() {
        try {
            return SEED.getLong(Thread.currentThread());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /* The seed steps by 0x9e3779b97f4a7c15 + 2*threadId per step (JDK 17
     * ThreadLocalRandom.nextSeed); nextLong takes one step, nextDouble two.
     * The step is odd, so the step count between two seeds is exact:
     * (after - before) times the step's inverse modulo 2^64. */
    static long stepsBetween(long before, long after) {
        long gamma = 0x9e3779b97f4a7c15L + (Thread.currentThread().getId() << 1);
        long inverse = gamma; /* Newton's iteration: 6 rounds give 64 bits */
        for (int i = 0; i < 6; i++)
            inverse *= 2 - gamma * inverse;
        return (after - before) * inverse;
    }

    static void expectSeed(long want, String what) {
        if (seed() != want)
            throw new IllegalStateException(what + ": the replayed draws do not end at the generator's seed");
    }

    /* The one nextDouble() a call from `before` to `after` consumed. */
    static double replayDouble(long before, long after, String what) {
        setSeed(before);
        double u = ThreadLocalRandom.current().nextDouble();
        expectSeed(after, what);
        return u;
    }

    /* The one nextLong() a call from `before` to `after` consumed. */
    static long replayLong(long before, long after, String what) {
        setSeed(before);
        long l = ThreadLocalRandom.current().nextLong();
        expectSeed(after, what);
        return l;
    }
}
