package io.legacygateway.deadletter;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Spaces redeliveries: the n-th message of a run is sent no earlier than {@code (n - 1) / rate} seconds after the
 * first. Time comes from the injected {@link Clock} and waiting from the injected {@link Sleeper}, so a test can pin
 * the clock and count the waits. A run that falls behind (slow broker) does not burst to catch up.
 */
final class RedeliveryPace {

    /** How the pace waits; the default sleeps the thread. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;

        Sleeper THREAD = d -> Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration interval;
    private Instant next;

    RedeliveryPace(Clock clock, Sleeper sleeper, int ratePerSecond) {
        if (ratePerSecond < 1) {
            throw new IllegalArgumentException("ratePerSecond must be at least 1");
        }
        this.clock = clock;
        this.sleeper = sleeper;
        this.interval = Duration.ofNanos(1_000_000_000L / ratePerSecond);
    }

    /** Waits until the next message may go. */
    void awaitTurn() throws InterruptedException {
        Instant now = clock.instant();
        if (next != null && now.isBefore(next)) {
            sleeper.sleep(Duration.between(now, next));
            now = next;
        }
        next = now.plus(interval);
    }
}
