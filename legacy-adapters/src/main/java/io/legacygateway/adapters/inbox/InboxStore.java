package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The inbox table of one database, and the two tables of the optional sequence gate. Every method must run inside the
 * caller's database transaction on the same {@link DataSource}, the one that also applies the message's effect: the
 * inbox row and the effect commit together or not at all.
 *
 * <p>Guarantee: {@link #record} returns {@code true} for at most one transaction per (message id, consumer) that
 * commits. It inserts first and reads the row count ({@code ON CONFLICT DO NOTHING} on PostgreSQL, {@code INSERT
 * IGNORE} on MariaDB); it never checks first and inserts afterwards. A concurrent transaction inserting the same key
 * waits for the first one to end, then sees the row (0 rows: a duplicate) or, if the first rolled back, inserts it.
 * Nothing here retries or commits.
 */
public final class InboxStore {

    /** Longest message id the inbox column holds; longer ids must be refused before {@link #record}. */
    public static final int MAX_MESSAGE_ID_LENGTH = 255;
    /** Longest consumer name the inbox column holds. */
    public static final int MAX_CONSUMER_LENGTH = 64;
    /** Longest aggregate key the sequence tables hold. */
    public static final int MAX_AGGREGATE_LENGTH = 255;

    private final NamedParameterJdbcTemplate jdbc;
    private final String recordSql;
    /** {@code null} when the dialect has no multi-row statement: {@link #recordAll} then inserts row by row. */
    private final String recordAllSql;
    private final String createSequenceSql;
    private final String lockSequenceSql;
    private final String advanceSequenceSql;
    private final String findParkedSql;
    private final String parkSql;
    private final String unparkSql;
    private final String retentionSelectSql;
    private final String retentionDeleteSql;
    private final String appliedSql;

    /**
     * @param inbox     the inbox table (columns {@code message_id, consumer_name, processed_at})
     * @param sequences the sequence table of the gate, {@code null} without a gate
     * @param parked    the parked-message table of the gate, {@code null} without a gate
     * @throws IllegalArgumentException when the dialect has no inbox statements
     */
    public InboxStore(DataSource dataSource, Dialect dialect, TableName inbox, TableName sequences, TableName parked) {
        if (!supports(dialect)) {
            throw new IllegalArgumentException("the inbox has no statements for " + dialect.id()
                    + " (supported: PostgreSQL, MariaDB, H2)");
        }
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
        this.recordSql = dialect.sql("inbox.record", Map.of("table", dialect.quote(inbox)));
        this.recordAllSql = dialect.has("inbox.recordAll")
                ? dialect.sql("inbox.recordAll", Map.of("table", dialect.quote(inbox))) : null;
        this.retentionSelectSql = dialect.sql("inbox.retention.select", Map.of("table", dialect.quote(inbox)));
        this.retentionDeleteSql = dialect.sql("inbox.retention.delete", Map.of("table", dialect.quote(inbox)));
        this.appliedSql = dialect.sql("inbox.applied", Map.of("table", dialect.quote(inbox)));
        boolean gate = sequences != null && parked != null;
        String seq = gate ? dialect.quote(sequences) : null;
        String park = gate ? dialect.quote(parked) : null;
        this.createSequenceSql = gate ? dialect.sql("inbox.sequence.create", Map.of("table", seq)) : null;
        this.lockSequenceSql = gate ? dialect.sql("inbox.sequence.lock", Map.of("table", seq)) : null;
        this.advanceSequenceSql = gate ? dialect.sql("inbox.sequence.advance", Map.of("table", seq)) : null;
        this.findParkedSql = gate ? dialect.sql("inbox.parked.find", Map.of("table", park)) : null;
        this.parkSql = gate ? dialect.sql("inbox.parked.insert", Map.of("table", park)) : null;
        this.unparkSql = gate ? dialect.sql("inbox.parked.delete", Map.of("table", park)) : null;
    }

    /** Whether the dialect has the inbox's statements. */
    public static boolean supports(Dialect dialect) {
        return dialect.has("inbox.record") && dialect.has("inbox.sequence.create");
    }

    /**
     * Records that {@code consumer} takes message {@code messageId}, in the caller's transaction.
     *
     * @return {@code true} on the first delivery (the row was inserted); {@code false} when it was there already (a
     *         duplicate: the effect must not be applied again)
     * @throws IllegalArgumentException when an id is blank or longer than its column
     */
    public boolean record(String messageId, String consumer, Instant processedAt) {
        requireLength("message id", messageId, MAX_MESSAGE_ID_LENGTH);
        requireLength("consumer", consumer, MAX_CONSUMER_LENGTH);
        return jdbc.update(recordSql, new MapSqlParameterSource()
                .addValue("messageId", messageId)
                .addValue("consumer", consumer)
                .addValue("processedAt", Timestamp.from(processedAt))) == 1;
    }

    /**
     * Records that {@code consumer} takes each of {@code messageIds}, in the caller's transaction: one multi-row
     * insert-first statement where the dialect has one ({@code ON CONFLICT DO NOTHING RETURNING} on PostgreSQL,
     * {@code INSERT IGNORE … RETURNING} on MariaDB), otherwise {@link #record} per id (H2). Same guarantee as
     * {@link #record} for every id. The rows are inserted in id order, so that two transactions inserting overlapping
     * ids (copies of the same messages) wait for each other instead of deadlocking.
     *
     * @return the ids inserted now (first deliveries); the others were there already (duplicates)
     * @throws IllegalArgumentException when an id is blank or longer than its column
     */
    public Set<String> recordAll(Collection<String> messageIds, String consumer,
                                           Instant processedAt) {
        SortedSet<String> ids = new TreeSet<>(messageIds);
        requireLength("consumer", consumer, MAX_CONSUMER_LENGTH);
        ids.forEach(id -> requireLength("message id", id, MAX_MESSAGE_ID_LENGTH));
        if (ids.isEmpty()) {
            return Set.of();
        }
        Set<String> inserted = new HashSet<>();
        if (recordAllSql == null) {
            for (String id : ids) {
                if (record(id, consumer, processedAt)) {
                    inserted.add(id);
                }
            }
            return inserted;
        }
        Timestamp at = Timestamp.from(processedAt);
        List<Object[]> rows = ids.stream().map(id -> new Object[] {id, consumer, at}).toList();
        inserted.addAll(jdbc.queryForList(recordAllSql, new MapSqlParameterSource("rows", rows), String.class));
        return inserted;
    }

    /** Which of these message ids {@code consumer} has taken (its inbox has them); one query per 500 ids. */
    public Set<String> applied(String consumer, Collection<String> messageIds) {
        Set<String> found = new HashSet<>();
        List<String> ids = List.copyOf(new LinkedHashSet<>(messageIds));
        for (int i = 0; i < ids.size(); i += 500) {
            found.addAll(jdbc.queryForList(appliedSql, new MapSqlParameterSource().addValue("consumer", consumer)
                    .addValue("messageIds", ids.subList(i, Math.min(ids.size(), i + 500))), String.class));
        }
        return found;
    }

    /**
     * Deletes one bounded batch of a consumer's inbox rows processed before {@code cutoff}, oldest first, by key. Run
     * each batch in a short transaction of its own (or autocommit); parked messages and sequences are not touched.
     *
     * @return rows selected for deletion; fewer than {@code batchSize} when no older row is left
     */
    public int deleteProcessedBefore(String consumer, Instant cutoff, int batchSize) {
        MapSqlParameterSource p = new MapSqlParameterSource().addValue("consumer", consumer)
                .addValue("cutoff", Timestamp.from(cutoff)).addValue("limit", batchSize);
        List<String> ids = jdbc.queryForList(retentionSelectSql, p, String.class);
        if (ids.isEmpty()) {
            return 0;
        }
        jdbc.update(retentionDeleteSql, p.addValue("ids", ids));
        return ids.size();
    }

    /**
     * The last sequence applied for an aggregate (0 when none), with the aggregate's row locked until the caller's
     * transaction ends, so that one aggregate is gated by one transaction at a time.
     */
    public long lockSequence(String consumer, String aggregate) {
        requireGate();
        requireLength("aggregate", aggregate, MAX_AGGREGATE_LENGTH);
        MapSqlParameterSource p = new MapSqlParameterSource().addValue("consumer", consumer)
                .addValue("aggregate", aggregate);
        jdbc.update(createSequenceSql, p);
        List<Long> last = jdbc.queryForList(lockSequenceSql, p, Long.class);
        if (last.size() != 1) {
            throw new IllegalStateException("no sequence row for " + consumer + "/" + aggregate + " after creating it");
        }
        return last.get(0);
    }

    public void advanceSequence(String consumer, String aggregate, long sequence) {
        requireGate();
        jdbc.update(advanceSequenceSql, new MapSqlParameterSource().addValue("consumer", consumer)
                .addValue("aggregate", aggregate).addValue("sequence", sequence));
    }

    /** A message kept aside until its turn: its id and body as received. */
    public record ParkedMessage(String messageId, String envelope) {
    }

    /** The message parked for an aggregate at a sequence, if any. */
    public Optional<ParkedMessage> parked(String consumer, String aggregate, long sequence) {
        requireGate();
        List<ParkedMessage> found = jdbc.query(findParkedSql, sequenceKey(consumer, aggregate, sequence),
                (rs, n) -> new ParkedMessage(rs.getString(1), rs.getString(2)));
        return found.stream().findFirst();
    }

    /** Keeps a message aside until the sequences before it are applied. Call after {@link #lockSequence}. */
    public void park(String consumer, String aggregate, long sequence, String messageId, String envelope,
                     Instant parkedAt) {
        requireGate();
        jdbc.update(parkSql, sequenceKey(consumer, aggregate, sequence).addValue("messageId", messageId)
                .addValue("envelope", envelope).addValue("parkedAt", Timestamp.from(parkedAt)));
    }

    /** Removes a parked message once it has been applied. */
    public void unpark(String consumer, String aggregate, long sequence) {
        requireGate();
        jdbc.update(unparkSql, sequenceKey(consumer, aggregate, sequence));
    }

    private static MapSqlParameterSource sequenceKey(String consumer, String aggregate, long sequence) {
        return new MapSqlParameterSource().addValue("consumer", consumer).addValue("aggregate", aggregate)
                .addValue("sequence", sequence);
    }

    private void requireGate() {
        if (lockSequenceSql == null) {
            throw new IllegalStateException("this inbox has no sequence gate");
        }
    }

    private static void requireLength(String what, String value, int max) {
        if (value == null || value.isBlank() || value.length() > max) {
            throw new IllegalArgumentException(what + " must be 1-" + max + " characters: '" + value + "'");
        }
    }
}
