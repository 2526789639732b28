package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.outbox.attempts.AttemptLog.Entry;
import io.legacygateway.adapters.outbox.sql.SqlLists;
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
 * ({@code attempt.effective}).
 */
final class AttemptQueries {

    private final AttemptTables tables;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate own;
    private final String relay;

    /** @param own a transaction of its own ({@code REQUIRES_NEW}) on the log's datasource */
    AttemptQueries(AttemptTables tables, JdbcTemplate jdbc, TransactionTemplate own, String relay) {
        this.tables = tables;
        this.jdbc = jdbc;
        this.own = own;
        this.relay = relay;
    }

    /** See {@link AttemptLog#attempts}. */
    Map<String, List<Entry>> attempts(Collection<String> rowKeys) {
        Map<String, List<Entry>> found = new LinkedHashMap<>();
        if (tables.packed()) {
            jdbc.query(tables.sql("attempt.packed.byRows"), rs -> {
                Entry e = entry(rs);
                found.computeIfAbsent(e.rowKey(), k -> new ArrayList<>()).add(e);
            }, relay, rowKeys.toArray(String[]::new));
            return found;
        }
        for (List<String> chunk : SqlLists.chunks(rowKeys)) {
            List<Object> binds = new ArrayList<>();
            binds.add(relay);
            binds.addAll(chunk);
            jdbc.query(tables.sql("attempt.byRows", Map.of("keys", SqlLists.marks(chunk.size()))), rs -> {
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

    /**
     * See {@link AttemptLog#deleteBefore}. Packs go before the attempts table's rows (their overrides): an override
     * without its pack reads as nothing, a pack without its override would read its element's recorded state.
     */
    int deleteBefore(Instant before, int batchSize) {
        int n = 0;
        int found = 0;
        if (tables.packed()) {
            List<String> packs = firstColumn(tables.sql("attempt.packed.old"), batchSize, relay, tables.time(before));
            n += deleteIds("attempt.packed.delete", packs);
            found += packs.size();
        }
        if (found < batchSize) {
            List<String> ids = firstColumn(tables.sql("attempt.old"), batchSize - found, relay, tables.time(before));
            n += deleteIds("attempt.delete", ids);
            found += ids.size();
        }
        if (found < batchSize) {
            List<String> old = firstColumn(tables.sql("attempt.oldCycles"), batchSize - found, relay,
                    tables.time(before));
            if (!old.isEmpty()) {
                Integer deleted = own.execute(s -> jdbc.update(tables.sql("attempt.deleteCycles", Map.of("ids",
                        SqlLists.marks(old.size()))), old.toArray()));
                n += deleted == null ? 0 : deleted;
            }
        }
        return n;
    }

    /** Deletes these ids (numbers as text) with statement {@code name}, in a transaction of its own. */
    private int deleteIds(String name, List<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<Long> keys = ids.stream().map(Long::valueOf).toList();
        Integer deleted = own.execute(s -> jdbc.update(tables.sql(name, Map.of("ids", SqlLists.marks(keys.size()))),
                keys.toArray()));
        return deleted == null ? 0 : deleted;
    }

    private List<String> firstColumn(String sql, int limit, Object... binds) {
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
