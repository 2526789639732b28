package io.legacygateway.inbox;

import io.legacygateway.adapters.Failures;
import io.legacygateway.config.DurationText;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.slf4j.Logger;

/**
 * One consumer's view of its database being unreachable: whether a new connection works now, the wait between two
 * tries of a batch's transaction (1 s, doubling up to {@code maxBackoff}, cut short when the route stops), and when the
 * outage began, which is logged once at its start and once at its end. Thread-safe: the consumer's listener threads
 * share it.
 */
final class DatabaseOutage {

    private static final Logger log = InboxLog.CONSUMER;
    /** The first wait after the database was found unreachable; doubled up to {@code maxBackoff}. */
    private static final long FIRST_RETRY_MILLIS = 1000;
    /** How long a new connection may take to prove the database answers. */
    static final int ANSWER_CHECK_SECONDS = 5;
    /** How often a wait for the database looks whether the route stops. */
    private static final long STOP_CHECK_MILLIS = 100;

    private final String consumer;
    private final String dataSource;
    private final Duration maxBackoff;
    private final InboxMetrics metrics;
    /** Whether a new connection to the consumer's database works now. */
    private final BooleanSupplier databaseAnswers;
    /** When the database was first found unreachable ({@link System#nanoTime}), 0 while it is reachable. */
    private final AtomicLong failingSince = new AtomicLong();

    DatabaseOutage(InboxSettings settings, InboxMetrics metrics, BooleanSupplier databaseAnswers) {
        this.consumer = settings.consumer();
        this.dataSource = settings.dataSource();
        this.maxBackoff = settings.maxBackoff();
        this.metrics = metrics;
        this.databaseAnswers = databaseAnswers;
    }

    /** Whether a connection from {@code dataSource} works now (a pooled one is checked by the pool first). */
    static boolean answers(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.isValid(ANSWER_CHECK_SECONDS);
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    /** Whether a new connection to the consumer's database works now: a lost connection without an outage says no. */
    boolean databaseAnswers() {
        return databaseAnswers.getAsBoolean();
    }

    /** The wait after {@code previous} (0: the first): 1 s, doubling, never more than {@code maxBackoff}. */
    static long nextWait(long previous, Duration maxBackoff) {
        long max = Math.max(1, maxBackoff.toMillis());
        return previous == 0 ? Math.min(FIRST_RETRY_MILLIS, max) : Math.min(previous * 2, max);
    }

    /** The wait after {@code previous} with this consumer's {@code maxBackoff}. */
    long nextWait(long previous) {
        return nextWait(previous, maxBackoff);
    }

    /** Waits {@code millis} unless {@code stopping} turns true first; whether to try again. */
    boolean pause(long millis, BooleanSupplier stopping) {
        log.debug("Inbox '{}': database '{}' unreachable; next try in {} ms", consumer, dataSource, millis);
        long until = System.nanoTime() + millis * 1_000_000L;
        for (long left = millis; left > 0; left = (until - System.nanoTime()) / 1_000_000L) {
            if (stopping.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(Math.min(left, STOP_CHECK_MILLIS)); // the backoff itself; the route's stop ends it early
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return !stopping.getAsBoolean();
    }

    /** A transaction found the database unreachable with {@code e}: counted; the outage's first one is logged. */
    void unreachable(RuntimeException e) {
        metrics.unreachable();
        if (failingSince.compareAndSet(0, System.nanoTime())) {
            log.warn("Inbox '{}': database '{}' unreachable; the message stays unacknowledged and is retried here "
                    + "with backoff up to {} (no delivery attempt is used): {}", consumer, dataSource,
                    DurationText.format(maxBackoff), Failures.describe(e));
        }
    }

    /** A transaction committed: an outage in progress ends, and its length is logged. */
    void reachable() {
        long since = failingSince.getAndSet(0);
        if (since != 0) {
            log.info("Inbox '{}': database '{}' reachable again after {} s", consumer, dataSource,
                    (System.nanoTime() - since) / 1_000_000_000L);
        }
    }
}
