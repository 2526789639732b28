package io.legacygateway.adapters.outbox;

import static io.legacygateway.adapters.outbox.OutboxColumn.AGGREGATE_ID;
import static io.legacygateway.adapters.outbox.OutboxColumn.KEY;
import static io.legacygateway.adapters.outbox.OutboxColumn.LAST_ERROR;
import static io.legacygateway.adapters.outbox.OutboxColumn.LOCKED_BY;
import static io.legacygateway.adapters.outbox.OutboxColumn.NEXT_RETRY_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.ORDER;
import static io.legacygateway.adapters.outbox.OutboxColumn.PUBLISHED_AT;
import static io.legacygateway.adapters.outbox.OutboxColumn.RETRY_COUNT;
import static io.legacygateway.adapters.outbox.OutboxColumn.STATUS;

import io.legacygateway.adapters.sql.Dialect;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims and marks rows of one outbox table. Every method must run inside the caller's database transaction on the
 * same {@link DataSource}: the row locks taken by {@link #claim} are what keeps two relays apart, and they last until
 * that transaction ends. Marks written in that transaction become visible only when it commits.
 *
 * <p>Guarantees: a row is returned by {@code claim} only while no other open transaction holds it ({@code FOR UPDATE
 * SKIP LOCKED}); {@link #behindOtherRows} removes rows whose aggregate has an earlier waiting row this claim does not
 * hold, so that two relays never publish one aggregate out of order. Not guaranteed: order between rows whose
 * transactions commit out of insertion order (the visibility gap; see the README).
 */
public final class OutboxStore {

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final List<OutboxColumn> selected;
    private final Map<OutboxColumn, Integer> position = new HashMap<>();
    private final String claimSql;
    private final boolean claimBindsNow;
    private final String publishedSql;
    private final String failedSql;
    private final boolean failedIncrementsRetry;

    public OutboxStore(DataSource dataSource, Dialect dialect, OutboxMapping mapping) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = dialect;
        this.mapping = mapping;
        this.selected = List.copyOf(mapping.columns().keySet());
        for (int i = 0; i < selected.size(); i++) {
            position.put(selected.get(i), i + 1);
        }
        List<String> columns = selected.stream().map(c -> q(mapping.column(c))).toList();
        List<String> claimable = new ArrayList<>();
        claimable.add(dialect.sql("outbox.claimable.status", Map.of("status", q(mapping.column(STATUS)))));
        claimBindsNow = mapping.has(NEXT_RETRY_AT);
        if (claimBindsNow) {
            claimable.add(dialect.sql("outbox.claimable.retryDue", Map.of("nextRetryAt", q(mapping.column(NEXT_RETRY_AT)))));
        }
        this.claimSql = dialect.sql("outbox.claim", Map.of(
                "columns", String.join(", ", columns),
                "table", table(),
                "claimable", String.join(" AND ", claimable),
                "order", q(mapping.column(ORDER))));

        List<String> published = new ArrayList<>(List.of(assign(STATUS)));
        if (mapping.has(PUBLISHED_AT)) {
            published.add(assign(PUBLISHED_AT));
        }
        if (mapping.has(LOCKED_BY)) {
            published.add(assign(LOCKED_BY));
        }
        this.publishedSql = mark(published);

        List<String> failed = new ArrayList<>(List.of(assign(STATUS)));
        if (mapping.has(LAST_ERROR)) {
            failed.add(assign(LAST_ERROR));
        }
        failedIncrementsRetry = mapping.has(RETRY_COUNT);
        if (failedIncrementsRetry) {
            failed.add(dialect.sql("assign.increment", Map.of("column", q(mapping.column(RETRY_COUNT)))));
        }
        this.failedSql = mark(failed);
    }

    public OutboxMapping mapping() {
        return mapping;
    }

    /**
     * Locks and returns up to {@code limit} claimable rows in outbox order, skipping rows other transactions hold.
     *
     * @param now rows whose next-retry time lies after {@code now} are not claimable
     */
    public List<OutboxRow> claim(int limit, Instant now) {
        List<Object> binds = new ArrayList<>();
        binds.add(mapping.pendingValue());
        if (claimBindsNow) {
            binds.add(Timestamp.from(now));
        }
        binds.add(limit);
        return jdbc.query(claimSql, this::row, binds.toArray());
    }

    /**
     * The claimed rows that must wait: for each aggregate, every claimed row that comes after a waiting row of the same
     * aggregate this claim does not hold (held by another relay, or not due yet). Publishing it now would overtake that
     * row. Concurrent claims can interleave (relay one holds rows 1 and 3 of an aggregate, relay two row 2), so the
     * check is against the first waiting row not held here, not only against the aggregate's first waiting row.
     */
    public Set<OutboxRow> behindOtherRows(List<OutboxRow> claimed) {
        Map<String, List<OutboxRow>> byAggregate = new HashMap<>();
        for (OutboxRow r : claimed) {
            if (r.aggregateId() != null) {
                byAggregate.computeIfAbsent(r.aggregateId(), k -> new ArrayList<>()).add(r);
            }
        }
        if (byAggregate.isEmpty()) {
            return Set.of();
        }
        List<Object> binds = new ArrayList<>();
        binds.add(mapping.pendingValue());
        binds.addAll(byAggregate.keySet());
        claimed.forEach(r -> binds.add(r.key()));
        String sql = dialect.sql("outbox.firstWaitingNotHeld", Map.of(
                "aggregateId", q(mapping.column(AGGREGATE_ID)),
                "order", q(mapping.column(ORDER)),
                "key", q(mapping.column(KEY)),
                "table", table(),
                "status", q(mapping.column(STATUS)),
                "aggregates", String.join(", ", Collections.nCopies(byAggregate.size(), "?")),
                "claimed", String.join(", ", Collections.nCopies(claimed.size(), "?"))));
        Map<String, Object> firstNotHeld = new HashMap<>();
        jdbc.query(sql, rs -> {
            firstNotHeld.put(rs.getString(1), rs.getObject(2));
        }, binds.toArray());
        Set<OutboxRow> waiting = new LinkedHashSet<>();
        byAggregate.forEach((aggregate, rows) -> {
            Object other = firstNotHeld.get(aggregate);
            if (other != null) {
                rows.stream().filter(r -> compareOrder(r.order(), other) > 0).forEach(waiting::add);
            }
        });
        return waiting;
    }

    /** Orders two values of the order column as the database does (numbers by value, others by their natural order). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compareOrder(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString()));
        }
        if (a instanceof Comparable c && a.getClass().isInstance(b)) {
            return c.compareTo(b);
        }
        return a.toString().compareTo(b.toString());
    }

    /** Marks rows published; call only after the broker confirmed them. */
    public void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
        if (rows.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(publishedSql, rows.stream().map(r -> {
            List<Object> binds = new ArrayList<>();
            binds.add(mapping.publishedValue());
            if (mapping.has(PUBLISHED_AT)) {
                binds.add(Timestamp.from(publishedAt));
            }
            if (mapping.has(LOCKED_BY)) {
                binds.add(publisher);
            }
            binds.add(r.key());
            return binds.toArray();
        }).toList());
    }

    /** Parks rejected rows with their reason: they are never dropped and no longer claimed. */
    public void markFailed(List<OutboxRejection> rejections) {
        if (rejections.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(failedSql, rejections.stream().map(r -> {
            List<Object> binds = new ArrayList<>();
            binds.add(mapping.failedValue());
            if (mapping.has(LAST_ERROR)) {
                binds.add(truncate(r.reason(), 2000));
            }
            binds.add(r.row().key());
            return binds.toArray();
        }).toList());
    }

    private OutboxRow row(ResultSet rs, int rowNum) throws SQLException {
        Map<OutboxColumn, Integer> index = position;
        Function<OutboxColumn, String> text = c -> {
            try {
                return index.containsKey(c) ? rs.getString(index.get(c)) : null;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        Function<OutboxColumn, Instant> time = c -> {
            try {
                Timestamp t = index.containsKey(c) ? rs.getTimestamp(index.get(c)) : null;
                return t == null ? null : t.toInstant();
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        Object version = index.containsKey(OutboxColumn.EVENT_VERSION) ? rs.getObject(index.get(OutboxColumn.EVENT_VERSION)) : null;
        int retries = index.containsKey(RETRY_COUNT) ? rs.getInt(index.get(RETRY_COUNT)) : 0;
        return new OutboxRow(rs.getObject(index.get(KEY)), rs.getObject(index.get(ORDER)),
                text.apply(OutboxColumn.EVENT_ID), text.apply(OutboxColumn.AGGREGATE_TYPE), text.apply(AGGREGATE_ID),
                text.apply(OutboxColumn.EVENT_TYPE), version, text.apply(OutboxColumn.PAYLOAD),
                time.apply(OutboxColumn.OCCURRED_AT), time.apply(OutboxColumn.CREATED_AT),
                text.apply(OutboxColumn.CORRELATION_ID), text.apply(OutboxColumn.CAUSATION_ID),
                text.apply(OutboxColumn.TRACE), retries);
    }

    private String mark(List<String> assignments) {
        return dialect.sql("outbox.mark", Map.of("table", table(), "assignments", String.join(", ", assignments),
                "key", q(mapping.column(KEY))));
    }

    private String assign(OutboxColumn column) {
        return dialect.sql("assign", Map.of("column", q(mapping.column(column))));
    }

    private String table() {
        return dialect.quote(mapping.table().name());
    }

    private String q(String identifier) {
        return dialect.quote(identifier);
    }

    private static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
