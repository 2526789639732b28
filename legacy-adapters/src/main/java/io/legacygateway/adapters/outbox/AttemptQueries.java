package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.outbox.AttemptLog.Entry;
import io.legacygateway.adapters.outbox.AttemptLog.MarkState;
import io.legacygateway.adapters.outbox.AttemptLog.Observation;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The readers of one relay's {@link AttemptLog}, and its retention. Each reads an attempt's effective state
 * ({@code attempt.effective}), after {@code flush} wrote the log's unwritten finish.
 */
final class AttemptQueries {

    private final AttemptTables tables;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate own;
    private final String relay;
    private final Runnable flush;

    /**
     * @param own   a transaction of its own ({@code REQUIRES_NEW}) on the log's datasource
     * @param flush writes the log's unwritten finish; run before every read
     */
    AttemptQueries(AttemptTables tables, JdbcTemplate jdbc, TransactionTemplate own, String relay, Runnable flush) {
        this.tables = tables;
        this.jdbc = jdbc;
        this.own = own;
        this.relay = relay;
        this.flush = flush;
    }

    /** See {@link AttemptLog#attempts}. */
    Map<String, List<Entry>> attempts(Collection<String> rowKeys) {
        flush.run();
        Map<String, List<Entry>> found = new LinkedHashMap<>();
        for (List<String> chunk : RejectionLog.chunks(rowKeys)) {
            List<Object> binds = new ArrayList<>();
            binds.add(relay);
            binds.addAll(chunk);
            jdbc.query(tables.sql("attempt.byRows", Map.of("keys", RejectionLog.marks(chunk.size()))), rs -> {
                Entry e = entry(rs);
                found.computeIfAbsent(e.rowKey(), k -> new ArrayList<>()).add(e);
            }, binds.toArray());
        }
        return found;
    }

    /** The row keys that statement {@code name} finds since {@code since}, at most {@code limit}. */
    List<String> rowsSince(String name, Instant since, int limit) {
        return firstColumn(tables.sql(name), limit, relay, tables.time(since));
    }

    /** See {@link AttemptLog#deleteBefore}. */
    int deleteBefore(Instant before, int batchSize) {
        List<String> ids = firstColumn(tables.sql("attempt.old"), batchSize, relay, tables.time(before));
        int n = 0;
        if (!ids.isEmpty()) {
            List<Long> keys = ids.stream().map(Long::valueOf).toList();
            Integer deleted = own.execute(s -> jdbc.update(tables.sql("attempt.delete", Map.of("ids",
                    RejectionLog.marks(keys.size()))), keys.toArray()));
            n = deleted == null ? 0 : deleted;
        }
        if (ids.size() < batchSize) {
            List<String> old = firstColumn(tables.sql("attempt.oldCycles"), batchSize - ids.size(), relay,
                    tables.time(before));
            if (!old.isEmpty()) {
                Integer deleted = own.execute(s -> jdbc.update(tables.sql("attempt.deleteCycles", Map.of("ids",
                        RejectionLog.marks(old.size()))), old.toArray()));
                n += deleted == null ? 0 : deleted;
            }
        }
        return n;
    }

    private List<String> firstColumn(String sql, int limit, Object... binds) {
        flush.run();
        JdbcTemplate bounded = new JdbcTemplate(Objects.requireNonNull(jdbc.getDataSource()));
        bounded.setMaxRows(limit);
        return own.execute(s -> bounded.query(sql, (rs, n) -> rs.getString(1), binds));
    }

    private Entry entry(ResultSet rs) throws SQLException {
        return new Entry(rs.getString(1), rs.getString(2), rs.getString(3),
                tables.timeKind().readInstant(rs, 4, ZoneOffset.UTC), rs.getString(5),
                Observation.valueOf(rs.getString(6).strip()), MarkState.valueOf(rs.getString(7).strip()),
                rs.getString(8), rs.getString(9));
    }
}
