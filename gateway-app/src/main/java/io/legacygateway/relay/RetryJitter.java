package io.legacygateway.relay;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The random source of the retry jitter ({@link RetryPolicy}): a value in [0, 1). A Spring bean, so that tests can
 * make every wait exact (a constant 0.5 gives the computed wait).
 */
@FunctionalInterface
public interface RetryJitter {

    double next();

    static RetryJitter random() {
        return () -> ThreadLocalRandom.current().nextDouble();
    }
}
