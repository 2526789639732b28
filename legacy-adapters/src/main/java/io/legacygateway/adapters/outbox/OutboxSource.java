package io.legacygateway.adapters.outbox;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Where a relay gets its rows and records what became of them: one implementation per kind of {@link MarkMode}
 * ({@link OutboxStore} claims and marks rows in the legacy table; {@link ZeroWriteReader} only reads it and keeps a
 * position of its own).
 *
 * <p>Contract: the relay calls {@link #claim}, then {@link #behindOtherRows}, publishes, then {@link #markPublished}
 * and {@link #markFailed}, all inside one transaction of the source's {@link #transactionDataSource()}. Nothing a
 * source records becomes visible unless that transaction commits, so a cycle that fails after the claim leaves every
 * row to be published again (at-least-once).
 */
public interface OutboxSource {

    OutboxMapping mapping();

    /** The datasource whose transaction the relay must run each cycle in. */
    javax.sql.DataSource transactionDataSource();

    /**
     * Up to {@code limit} rows to publish now, in publication order.
     *
     * @param now rows whose next-retry time lies after {@code now} are not claimed
     */
    List<OutboxRow> claim(int limit, Instant now);

    /** The claimed rows that must not be published in this cycle because an earlier row of their aggregate waits. */
    Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed);

    /** Records rows as published; call only after the broker confirmed them. */
    void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher);

    /** Keeps rejected rows with their reason: never dropped, no longer claimed, never blocking other rows. */
    void markFailed(List<OutboxRejection> rejections, Instant at);
}
