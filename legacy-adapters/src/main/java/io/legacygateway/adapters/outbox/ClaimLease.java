package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.sql.Dialect;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * A claim's lease, enforced by the database, and the fence a cycle passes before the broker commits its batch.
 *
 * <p>{@link #begin} sets the lease on the cycle's connection for the cycle's transaction ({@code outbox.lease}): the
 * server ends a session idle in that transaction for longer than the lease, which releases its row locks; another relay
 * then claims the rows. {@link #prove} is the fence: it runs {@code outbox.lease.check} on the cycle's connection
 * (it fails on a session the server ended) and refuses when that statement answered the lease or more after it was
 * sent.
 *
 * <p>Guaranteed: {@link #prove} returns only when the session answered a statement less than the lease ago (measured
 * on the monotonic clock from before the statement was sent, so never shorter than the server's idle time); the server
 * cannot have ended that session before then, so no other relay can have claimed its rows yet. Not guaranteed: what
 * happens between {@code prove}'s return and the broker's commit; a process frozen there for longer than the lease
 * commits a batch another relay may publish too (see docs/architecture.md, "Several gateways", for why the broker's
 * duplicate detection still drops the second copy unless the freeze is far longer).
 *
 * <p>One cycle at a time per instance (a relay's cycles never overlap), on the thread of that cycle.
 */
public final class ClaimLease {

    private final JdbcTemplate jdbc;
    private final Duration lease;
    private final long leaseNanos;
    private final String set;
    private final Object setValue;
    private final String reset;
    private final String check;
    private final LongSupplier nanoTime;

    public ClaimLease(JdbcTemplate jdbc, Dialect dialect, Duration lease, LongSupplier nanoTime) {
        this.jdbc = jdbc;
        this.lease = lease;
        this.leaseNanos = lease.toNanos();
        this.set = dialect.sql("outbox.lease", Map.of());
        // PostgreSQL takes milliseconds (as text, set_config's type); MariaDB whole seconds, rounded up so that the
        // server's lease is never shorter than the one the fence counts with
        this.setValue = dialect == Dialect.MARIADB ? (Object) ((lease.toMillis() + 999) / 1000)
                : String.valueOf(lease.toMillis());
        this.reset = dialect.has("outbox.lease.reset") ? dialect.sql("outbox.lease.reset", Map.of()) : null;
        this.check = dialect.sql("outbox.lease.check", Map.of());
        this.nanoTime = nanoTime;
    }

    /** The lease of a store of this dialect, or {@code null} where the dialect has none (H2: nothing ends a session). */
    public static ClaimLease of(JdbcTemplate jdbc, Dialect dialect, Duration lease, LongSupplier nanoTime) {
        return lease == null || !dialect.has("outbox.lease") ? null : new ClaimLease(jdbc, dialect, lease, nanoTime);
    }

    public Duration lease() {
        return lease;
    }

    /** Sets the lease for the caller's transaction, before its claim locks any row. */
    public void begin() {
        jdbc.execute(set, (PreparedStatementCallback<Boolean>) ps -> { // a SELECT here, a SET there
            ps.setObject(1, setValue);
            return ps.execute();
        });
        if (reset != null && TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    try {
                        jdbc.execute(reset); // still the cycle's connection: the pool has not taken it back yet
                    } catch (RuntimeException e) {
                        // the server closed the session (the lease ran out): the pool drops the connection. In XA the
                        // pool is the relay's own, whose cycles all set the lease anyway
                    }
                }
            });
        }
    }

    /**
     * The fence, run before each broker commit of the cycle (the batch's, and each message's when the batch is sent one
     * at a time after the broker refused it whole): one statement on the cycle's connection, which restarts the
     * server's idle timer, then the time check against the moment it was sent.
     *
     * @throws ClaimLostException when the session no longer answers, or answered the lease or more after it was asked
     */
    public void prove() {
        long before = nanoTime.getAsLong();
        try {
            jdbc.queryForObject(check, Integer.class);
        } catch (DataAccessException e) {
            throw new ClaimLostException("the claim's session no longer answers (the database ended it: claimLease "
                    + lease.toMillis() + " ms ran out, or it was killed); another relay may hold its rows: the"
                    + " batch is not committed on the broker", e);
        }
        long took = nanoTime.getAsLong() - before;
        if (took >= leaseNanos) {
            throw new ClaimLostException("the claim's session answered the fence " + took / 1_000_000 + " ms after it"
                    + " was asked, not less than claimLease (" + lease.toMillis() + " ms): the database may have ended"
                    + " it meanwhile, and another relay may hold its rows: the batch is not committed on the broker",
                    null);
        }
    }
}
