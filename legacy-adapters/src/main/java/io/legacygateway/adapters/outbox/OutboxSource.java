package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Where a relay gets its rows and records what became of them: one implementation per kind of {@link MarkMode}
 * ({@link OutboxStore} claims and marks rows in the legacy table; {@link ZeroWriteReader} only reads it and keeps a
 * position of its own).
 *
 * <p>Contract: the relay calls {@link #claim}, then {@link #behindOtherRows}, publishes, then {@link #mark} (which
 * {@link #markPublished marks} and {@link #recordFailures records failures}), all inside one transaction of the
 * source's {@link #transactionDataSource()}. Nothing a
 * source records becomes visible unless that transaction commits, so a cycle that fails after the claim leaves every
 * row to be published again (at-least-once), and charges no row an attempt.
 *
 * <p>A failed attempt leaves the row waiting until its next retry time (its aggregate's later rows wait behind it
 * where the source keeps order per aggregate), or parks it as FAILED. A FAILED row is never claimed again until
 * {@link #retry} makes it due; whether it holds back its aggregate is the source's {@code failedRowPolicy}.
 */
public interface OutboxSource {

    OutboxMapping mapping();

    /** The datasource whose transaction the relay must run each cycle (and an operator's retry) in. */
    DataSource transactionDataSource();

    /**
     * Up to {@code limit} rows to publish now, in publication order, each with its failed attempts so far.
     *
     * @param now rows whose next-retry time lies after {@code now} are not claimed, nor the later rows of their
     *            aggregate
     */
    List<OutboxRow> claim(int limit, Instant now);

    /** The claimed rows that must not be published in this cycle because an earlier row of their aggregate waits. */
    Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed);

    /**
     * Whether {@link #claimPast} is there: a source whose claim locks rows and leaves held-back rows to a later cycle.
     * False here.
     */
    default boolean claimsPast() {
        return false;
    }

    /**
     * In the transaction of a {@link #claim} whose rows were held back behind another relay's ({@link #behindOtherRows}),
     * the claim's continuation: up to {@code limit} claimable rows after {@code lastOrder}, the last claimed row's
     * order, leaving out the rows of the {@code heldBack} aggregates, locked and in order. Rows without an aggregate
     * are included. Only where {@link #claimsPast} is true.
     *
     * @throws UnsupportedOperationException where {@link #claimsPast} is false
     */
    default List<OutboxRow> claimPast(Object lastOrder, Set<String> heldBack, int limit, Instant now) {
        throw new UnsupportedOperationException("this source does not claim again");
    }

    /**
     * The fence, run before the broker commits the cycle's batch (and before each message's commit when it is sent one
     * at a time): returns only when the cycle's claim still holds its rows, as far as the source can prove it (see
     * {@link ClaimLease}); a source without a claim lease proves nothing and returns.
     *
     * @throws ClaimLostException when another relay may hold the claimed rows by now: commit nothing on the broker
     */
    default void proveClaim() {
    }

    /**
     * Whether a claimed row the relay leaves alone in a cycle (held back behind an earlier row of its aggregate) is
     * claimed again later. False for {@link ZeroWriteReader}, whose position has moved past every row it returned: it
     * must publish or record each of them.
     */
    boolean keepsOrderPerAggregate();

    /** Records rows as published; call only after the broker confirmed them. */
    void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher);

    /**
     * Records failed attempts: the row waits for its next retry with the attempt count and the reason, or is parked as
     * FAILED (never dropped, no longer claimed).
     */
    void recordFailures(List<OutboxFailure> failures, Instant at);

    /**
     * Records a cycle's outcome: {@link #markPublished} the confirmed rows, {@link #recordFailures} the failed
     * attempts.
     * A source whose writes the database may refuse for one row charges such a refusal to that row and parks it as
     * FAILED with the database's reason (see {@link OutboxStore#mark}), so that one row never fails the cycle; what
     * fails the cycle is an outage.
     *
     * @return the rows parked because the database refused their own write, as parked failures (empty here)
     */
    default List<OutboxFailure> mark(List<OutboxRow> published, Instant at, String publisher,
                                     List<OutboxFailure> failures) {
        markPublished(published, at, publisher);
        recordFailures(failures, at);
        return List.of();
    }

    /** Rows parked as FAILED, in outbox order (or, where only the gateway's table knows them, oldest failure first). */
    List<FailedRow> failed(int limit);

    /** The FAILED rows among these keys (as text, as {@link FailedRow#row()} renders them). */
    List<FailedRow> failed(Collection<String> keys);

    /**
     * An operator's retry, in the caller's transaction on {@link #transactionDataSource()}: the rows become due now
     * with no failed attempts counted. Rows no longer FAILED are left alone.
     *
     * @return how many rows were made due
     */
    int retry(List<FailedRow> rows);

    /**
     * Up to {@code limit} rows not yet published (retrying rows included, FAILED rows not), in outbox order, each with
     * its failed attempts so far: a plain read for operations (no lock, no effect on the cycle).
     */
    List<OutboxRow> waiting(int limit);

    /** Pending and FAILED counts and the oldest waiting row's time: a few cheap statements, outside any cycle. */
    Backlog backlog(Instant now);
}
