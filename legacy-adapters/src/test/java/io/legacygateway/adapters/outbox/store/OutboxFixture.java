package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Outbox tables of the default schema in a {@link TestSchema}, one per mark mode that writes to its table
 * ({@code outbox_status}, {@code outbox_timestamp}, {@code outbox_delete}), and stores over them as a relay builds
 * them: mapping resolved from the live table with default parameters, the rejection log where the mapping needs it.
 */
final class OutboxFixture {

    static final String RELAY = "contract";

    private final TestSchema schema;

    OutboxFixture(TestSchema schema) {
        this.schema = schema;
        for (MarkMode mode : List.of(MarkMode.STATUS, MarkMode.TIMESTAMP, MarkMode.DELETE)) {
            SchemaScripts.applyOutboxAs(schema.dataSource(), schema.dialect(), table(mode));
        }
    }

    static String table(MarkMode mode) {
        return "outbox_" + mode.name().toLowerCase(Locale.ROOT);
    }

    /** Empties the outbox tables and the gateway's relay tables between tests. */
    void clear() {
        for (MarkMode mode : List.of(MarkMode.STATUS, MarkMode.TIMESTAMP, MarkMode.DELETE)) {
            schema.jdbc().update("DELETE FROM " + table(mode));
        }
        schema.jdbc().update("DELETE FROM " + RejectionLog.TABLE);
    }

    OutboxMapping mapping(MarkMode mode) {
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, table(mode)), "table");
        return OutboxMapping.resolve(table, new OutboxMapping.Settings(mode, Map.of(), "PENDING", "PUBLISHED",
                "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
    }

    RejectionLog log(MarkMode mode) {
        return new RejectionLog(schema.dataSource(), schema.dialect(), RELAY, "contract/" + table(mode), "dataSource");
    }

    OutboxStore store(MarkMode mode, boolean retries, boolean blockAggregate) {
        return new OutboxStore(schema.dataSource(), schema.dialect(), mapping(mode), log(mode), retries,
                blockAggregate);
    }

    /** As {@link #store(MarkMode, boolean, boolean)}, on {@code dataSource}, with a claim lease. */
    OutboxStore store(MarkMode mode, javax.sql.DataSource dataSource, java.time.Duration claimLease) {
        RejectionLog log = new RejectionLog(dataSource, schema.dialect(), RELAY, "contract/" + table(mode),
                "dataSource");
        return new OutboxStore(dataSource, schema.dialect(), mapping(mode), log, true, false, claimLease);
    }

    /** Inserts one row per aggregate id, in order, as a legacy application would; returns their keys in order. */
    List<Long> insert(MarkMode mode, String... aggregateIds) {
        for (String aggregate : aggregateIds) {
            schema.jdbc().update("INSERT INTO " + table(mode) + " (aggregate_type, aggregate_id, event_type, payload)"
                    + " VALUES (?, ?, ?, ?)", "Order", aggregate, "OrderCreated", "{\"order\":\"" + aggregate + "\"}");
        }
        List<Long> keys = keys(mode);
        return keys.subList(keys.size() - aggregateIds.length, keys.size());
    }

    /** The keys of every row still in the table, in outbox order. */
    List<Long> keys(MarkMode mode) {
        return schema.jdbc().queryForList("SELECT seq FROM " + table(mode) + " ORDER BY seq", Long.class);
    }

    /** A column of one row, as the database returns it. */
    <T> T value(MarkMode mode, long key, String column, Class<T> type) {
        return schema.jdbc().queryForObject("SELECT " + column + " FROM " + table(mode) + " WHERE seq = ?", type, key);
    }

    int count(MarkMode mode, String condition) {
        return schema.jdbc().queryForObject("SELECT count(*) FROM " + table(mode) + " WHERE " + condition,
                Integer.class);
    }

    static List<Long> keysOf(List<OutboxRow> rows) {
        return rows.stream().map(r -> ((Number) r.key()).longValue()).toList();
    }

    /**
     * Runs {@code cycle} (one committed relay cycle returning the keys it claimed, added to {@code published}) until
     * every committed row of {@code outbox} was claimed or {@code atMost} passed; then asserts that none is lost (naming
     * the rows) and none claimed twice.
     */
    static void assertEveryCommittedRowPublishedOnce(JdbcTemplate jdbc, List<Long> published,
                                                     Supplier<List<Long>> cycle, Duration atMost) {
        List<Long> committed = jdbc.queryForList("SELECT seq FROM outbox ORDER BY seq", Long.class);
        try {
            Awaitility.await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> {
                published.addAll(cycle.get());
                return published.containsAll(committed);
            });
        } catch (ConditionTimeoutException e) {
            // the assertion below names the rows lost
        }
        List<Long> lost = new ArrayList<>(committed);
        lost.removeAll(published);
        Assertions.assertThat(lost).as("committed rows never published (committed %s, published %s)", committed,
                published).isEmpty();
        Assertions.assertThat(published).as("each once").doesNotHaveDuplicates();
    }
}
