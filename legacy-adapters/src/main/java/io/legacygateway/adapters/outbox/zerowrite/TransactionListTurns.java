package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.sql.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns at reading MariaDB's transaction list ({@code INNODB_TRX}), shared by every gateway on one server. InnoDB fills
 * the list again only when nobody has read it for 0.1 s, so readers that do not take turns keep it stale for each
 * other for as long as they go on. A reader takes the server's named lock ({@code zerowrite.horizon.lock}) on the
 * connection it reads with, before its read, and keeps it for {@link #HOLD} after: a thread of its own then gives it
 * back and returns the connection to its pool. So every read of a gateway comes at least {@link #HOLD} after the
 * previous read of any gateway on that server, whichever JVM made it.
 *
 * <p>Not covered: readers that do not take turns (a monitoring agent, a gateway of an earlier version); the horizon's
 * proof ({@link ZeroWriteWindows#horizon}) still refuses a list they keep stale. A reader that waits {@link #WAIT} in
 * vain, or whose server refuses the lock (Galera), reads without a turn.
 */
final class TransactionListTurns {

    /** How long a turn lasts after its read: more than the 0.1 s InnoDB waits before it refills the list. */
    static final Duration HOLD = ZeroWriteWindows.REFILL;
    /** How long a reader waits for its turn; a turn lasts one read and {@link #HOLD}. */
    static final Duration WAIT = Duration.ofSeconds(2);
    /** How long giving a turn back may take before the session is ended instead (the server then gives it back). */
    private static final Duration GIVE_BACK_WITHIN = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(TransactionListTurns.class);
    private static final AtomicBoolean REFUSED_LOGGED = new AtomicBoolean();
    private static final ScheduledExecutorService ENDS = Executors.newSingleThreadScheduledExecutor(
            daemon("gateway-innodb-trx-turns"));
    /** Give-backs run here, not on {@link #ENDS}: one that hangs on an unreachable server delays no other. */
    private static final ExecutorService GIVE_BACKS = Executors.newCachedThreadPool(
            daemon("gateway-innodb-trx-give-back"));

    private TransactionListTurns() {
    }

    /** Waits for the turn on {@code c}; whether it was taken. */
    static boolean take(Connection c, Dialect dialect) {
        try (PreparedStatement ps = c.prepareStatement(dialect.sql("zerowrite.horizon.lock", Map.of()))) {
            ps.setLong(1, WAIT.toSeconds());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            }
        } catch (SQLException e) {
            if (REFUSED_LOGGED.compareAndSet(false, true)) {
                log.warn("ZERO_WRITE: the server refused the lock that gateways take turns with to read"
                        + " information_schema.INNODB_TRX ({}); reading without turns, so relays of several gateways on"
                        + " this server may keep the list stale for each other and wait", e.getMessage());
            }
            return false;
        }
    }

    /**
     * Ends the read on {@code c}: with a turn, gives it back {@link #HOLD} from now and then closes {@code c}; without,
     * closes {@code c} now.
     */
    static void end(Connection c, Dialect dialect, boolean turn) {
        if (turn) {
            ENDS.schedule(() -> GIVE_BACKS.execute(() -> giveBack(c, dialect)), HOLD.toMillis(),
                    TimeUnit.MILLISECONDS);
        } else {
            close(c);
        }
    }

    private static void giveBack(Connection c, Dialect dialect) {
        try {
            c.setNetworkTimeout(Runnable::run, (int) GIVE_BACK_WITHIN.toMillis()); // a pool resets it on close
        } catch (SQLException | RuntimeException e) {
            log.debug("no network timeout for giving back the INNODB_TRX turn", e);
        }
        try (Statement s = c.createStatement()) {
            s.execute(dialect.sql("zerowrite.horizon.unlock", Map.of()));
        } catch (SQLException | RuntimeException e) {
            // a pooled session still holding the lock would block every gateway's turn until the pool retires it;
            // the server gives the lock back when the session ends
            log.debug("could not give back the INNODB_TRX turn; ending the session", e);
            try {
                c.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // closed below
            }
        }
        close(c);
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            log.debug("closing the INNODB_TRX reader's connection", e);
        }
    }
}
