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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims and marks rows of one outbox table in the mark modes that write to it ({@link MarkMode#STATUS},
 * {@link MarkMode#TIMESTAMP}, {@link MarkMode#DELETE}). Every method must run inside the caller's database transaction
 * on the same {@link DataSource}: the row locks taken by {@link #claim} are what keeps two relays apart, and they last
 * until that transaction ends. Marks written in that transaction become visible only when it commits.
 *
 * <p>Guarantees: a row is returned by {@code claim} only while no other open transaction holds it ({@code FOR UPDATE
 * SKIP LOCKED}); {@link #behindOtherRows} removes rows whose aggregate has an earlier waiting row this claim does not
 * hold, so that two relays never publish one aggregate out of order. A rejected row is parked (status, processed time,
 * or, in DELETE mode, left in place and skipped) with its reason on the row or in the {@link RejectionLog}. Not
 * guaranteed: order between rows whose transactions commit out of insertion order (the visibility gap; see the README).
 */
public final class OutboxStore implements OutboxSource {

    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final OutboxMapping mapping;
    private final MarkMode mode;
    private final OutboxRowReader reader;
    private final RejectionLog rejections;
    private final String claimSql;
    private final String pendingSql;
    private final String publishedSql;
    private final String failedSql;

    /**
     * @param rejections where reasons go that the row cannot hold; required in DELETE mode and when the table has no
     *                   reason column, and then it must live in this datasource
     */
    public OutboxStore(DataSource dataSource, Dialect dialect, OutboxMapping mapping, RejectionLog rejections) {
        this.mode = mapping.markMode();
        if (!mode.writesToTable()) {
            throw new IllegalArgumentException(mode + " does not claim rows; use " + ZeroWriteReader.class.getSimpleName());
        }
        if (needsRejectionLog(mapping) && (rejections == null || rejections.dataSource() != dataSource)) {
            throw new IllegalArgumentException("markMode " + mode + " needs the rejection log in the table's datasource");
        }
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = dialect;
        this.mapping = mapping;
        this.reader = new OutboxRowReader(dialect, mapping, dialect.quote(mapping.table().name()));
        this.rejections = rejections;

        this.pendingSql = pending();
        String claimable = mapping.has(NEXT_RETRY_AT)
                ? pendingSql + " AND " + dialect.sql("outbox.claimable.retryDue",
                        Map.of("nextRetryAt", q(mapping.column(NEXT_RETRY_AT))))
                : pendingSql;
        this.claimSql = dialect.sql("outbox.claim", Map.of("columns", reader.selectList(), "table", table(),
                "claimable", claimable, "order", q(mapping.column(ORDER))));

        if (mode == MarkMode.DELETE) {
            this.publishedSql = dialect.sql("outbox.delete", Map.of("table", table(), "key", q(mapping.column(KEY))));
            this.failedSql = null;
        } else {
            List<String> published = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            if (mode == MarkMode.STATUS) {
                published.add(assign(STATUS));
                failed.add(assign(STATUS));
            }
            if (mapping.has(PUBLISHED_AT)) {
                published.add(assign(PUBLISHED_AT));
                if (mode == MarkMode.TIMESTAMP) {
                    failed.add(assign(PUBLISHED_AT));
                }
            }
            if (mapping.has(LOCKED_BY)) {
                published.add(assign(LOCKED_BY));
            }
            if (mapping.has(LAST_ERROR)) {
                failed.add(assign(LAST_ERROR));
            }
            if (mapping.has(RETRY_COUNT)) {
                failed.add(dialect.sql("assign.increment", Map.of("column", q(mapping.column(RETRY_COUNT)))));
            }
            this.publishedSql = mark(published);
            this.failedSql = mark(failed);
        }
    }

    /** Whether rejected rows of this mapping need the gateway's {@link RejectionLog}. */
    public static boolean needsRejectionLog(OutboxMapping mapping) {
        return mapping.markMode() == MarkMode.DELETE || mapping.markMode() == MarkMode.ZERO_WRITE
                || !mapping.has(LAST_ERROR);
    }

    @Override
    public OutboxMapping mapping() {
        return mapping;
    }

    @Override
    public DataSource transactionDataSource() {
        return dataSource;
    }

    /** The condition of a waiting row in this mode, without the retry-due part. */
    private String pending() {
        return switch (mode) {
            case STATUS -> dialect.sql("outbox.claimable.status", Map.of("status", q(mapping.column(STATUS))));
            case TIMESTAMP -> dialect.sql("outbox.claimable.unprocessed",
                    Map.of("processedAt", q(mapping.column(PUBLISHED_AT))));
            case DELETE -> rejections.notRejected(OutboxRowReader.keyText(dialect, mapping, table()));
            case ZERO_WRITE -> throw new IllegalStateException();
        };
    }

    private void pendingBinds(List<Object> binds) {
        if (mode == MarkMode.STATUS) {
            binds.add(mapping.statusBind(mapping.pendingValue()));
        } else if (mode == MarkMode.DELETE) {
            binds.add(rejections.source());
        }
    }

    /**
     * Locks and returns up to {@code limit} claimable rows in outbox order, skipping rows other transactions hold.
     *
     * @param now rows whose next-retry time lies after {@code now} are not claimable
     */
    @Override
    public List<OutboxRow> claim(int limit, Instant now) {
        List<Object> binds = new ArrayList<>();
        pendingBinds(binds);
        if (mapping.has(NEXT_RETRY_AT)) {
            binds.add(mapping.kind(NEXT_RETRY_AT).bindInstant(now, mapping.naiveZone()));
        }
        binds.add(limit);
        return jdbc.query(claimSql, (rs, n) -> reader.read(rs), binds.toArray());
    }

    /**
     * The claimed rows that must wait: for each aggregate, every claimed row that comes after a waiting row of the same
     * aggregate this claim does not hold (held by another relay, or not due yet). Publishing it now would overtake that
     * row. Concurrent claims can interleave (relay one holds rows 1 and 3 of an aggregate, relay two row 2), so the
     * check is against the first waiting row not held here, not only against the aggregate's first waiting row.
     */
    @Override
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
        pendingBinds(binds);
        byAggregate.keySet().forEach(binds::add);
        claimed.forEach(r -> binds.add(r.key()));
        String sql = dialect.sql("outbox.firstWaitingNotHeld", Map.of(
                "aggregateId", q(mapping.column(AGGREGATE_ID)),
                "order", q(mapping.column(ORDER)),
                "key", q(mapping.column(KEY)),
                "table", table(),
                "pending", pendingSql,
                "aggregates", String.join(", ", Collections.nCopies(byAggregate.size(), "?")),
                "claimed", String.join(", ", Collections.nCopies(claimed.size(), "?"))));
        ColumnKind orderKind = mapping.kind(ORDER);
        Map<String, Object> firstNotHeld = new HashMap<>();
        jdbc.query(sql, rs -> {
            // the aggregate id as the row reader renders it (CHAR padding removed), so the keys match
            firstNotHeld.put(mapping.kind(AGGREGATE_ID) == ColumnKind.CHAR ? rs.getString(1).stripTrailing()
                    : rs.getString(1), orderKind.readComparable(rs, 2));
        }, binds.toArray());
        Set<OutboxRow> waiting = new LinkedHashSet<>();
        byAggregate.forEach((aggregate, rows) -> {
            Object other = firstNotHeld.get(aggregate);
            if (other != null) {
                rows.stream().filter(r -> orderKind.compare(r.order(), other) > 0).forEach(waiting::add);
            }
        });
        return waiting;
    }

    /** Marks (or in DELETE mode deletes) rows published; call only after the broker confirmed them. */
    @Override
    public void markPublished(List<OutboxRow> rows, Instant publishedAt, String publisher) {
        if (rows.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(publishedSql, rows.stream().map(r -> {
            List<Object> binds = new ArrayList<>();
            if (mode == MarkMode.STATUS) {
                binds.add(mapping.statusBind(mapping.publishedValue()));
            }
            if (mode != MarkMode.DELETE && mapping.has(PUBLISHED_AT)) {
                binds.add(mapping.kind(PUBLISHED_AT).bindInstant(publishedAt, mapping.naiveZone()));
            }
            if (mode != MarkMode.DELETE && mapping.has(LOCKED_BY)) {
                binds.add(publisher);
            }
            binds.add(r.key());
            return binds.toArray();
        }).toList());
    }

    /**
     * Parks rejected rows with their reason: they are never dropped and no longer claimed. STATUS: the failed status;
     * TIMESTAMP: the processed time; both with the reason in the reason column when mapped. DELETE: the row stays and
     * is skipped by later claims. Without a reason column the reason goes to the {@link RejectionLog}.
     */
    @Override
    public void markFailed(List<OutboxRejection> rejected, Instant at) {
        if (rejected.isEmpty()) {
            return;
        }
        if (failedSql != null) {
            jdbc.batchUpdate(failedSql, rejected.stream().map(r -> {
                List<Object> binds = new ArrayList<>();
                if (mode == MarkMode.STATUS) {
                    binds.add(mapping.statusBind(mapping.failedValue()));
                }
                if (mode == MarkMode.TIMESTAMP) {
                    binds.add(mapping.kind(PUBLISHED_AT).bindInstant(at, mapping.naiveZone()));
                }
                if (mapping.has(LAST_ERROR)) {
                    binds.add(RejectionLog.truncate(r.reason(), 2000));
                }
                binds.add(r.row().key());
                return binds.toArray();
            }).toList());
        }
        if (needsRejectionLog(mapping)) {
            rejections.record(rejected);
        }
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
}
