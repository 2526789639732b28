package io.legacygateway.adapters.outbox.store;

import static io.legacygateway.adapters.outbox.mapping.OutboxColumn.LAST_ERROR;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.adapters.outbox.FailedRow;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.adapters.outbox.mapping.OutboxRowReader;
import io.legacygateway.adapters.outbox.sql.OutboxStatements.Param;
import io.legacygateway.adapters.outbox.sql.OutboxStatements;
import io.legacygateway.adapters.outbox.sql.SqlLists;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The operators' side of an {@link OutboxStore}: FAILED rows and their retry, waiting rows, the backlog sample and
 * retention of published rows. Each call runs in the caller's transaction, or in one of its own when there is none.
 */
final class OutboxOperations {

    private final JdbcTemplate jdbc;
    private final OutboxMapping mapping;
    private final OutboxRowReader reader;
    private final OutboxStatements statements;
    /** The log of failed attempts; {@code null} when the row keeps them. */
    private final RejectionLog log;
    /** The log that parks refusing rows; {@code null} when there is none. */
    private final RejectionLog lastResort;
    private final boolean attemptsOnRow;

    OutboxOperations(JdbcTemplate jdbc, OutboxMapping mapping, OutboxRowReader reader, OutboxStatements statements,
                     RejectionLog log, RejectionLog lastResort) {
        this.jdbc = jdbc;
        this.mapping = mapping;
        this.reader = reader;
        this.statements = statements;
        this.log = log;
        this.lastResort = lastResort;
        this.attemptsOnRow = OutboxStore.attemptsOnRow(mapping);
    }

    List<FailedRow> failed(int limit) {
        OutboxStatements.Statement first = statements.get("failed.first");
        return failedRows(first.sql(), first.values(Map.of(Param.LIMIT, limit)));
    }

    List<FailedRow> failed(Collection<String> keys) {
        List<FailedRow> found = new ArrayList<>();
        OutboxStatements.Statement byKeys = statements.get("failed.byKeys");
        for (List<String> chunk : SqlLists.chunks(new LinkedHashSet<>(keys))) {
            Map<Param, Object> values = Map.of(Param.KEY_TEXTS, chunk);
            found.addAll(failedRows(byKeys.sql(values), byKeys.values(values)));
        }
        return found;
    }

    /** FAILED rows with their reason and attempts: from the log's entry where there is one, else from the row. */
    private List<FailedRow> failedRows(String sql, Object[] binds) {
        int reasonIndex = reader.columnCount() + 1;
        List<Object[]> read = jdbc.query(sql, (rs, n) -> new Object[] {reader.read(rs),
                mapping.has(LAST_ERROR) ? rs.getString(reasonIndex) : null}, binds);
        Map<String, RejectionLog.Entry> entries = lastResort == null ? Map.of()
                : lastResort.entries(read.stream().map(r -> ((OutboxRow) r[0]).keyText()).toList());
        List<FailedRow> rows = new ArrayList<>();
        for (Object[] r : read) {
            OutboxRow row = (OutboxRow) r[0];
            RejectionLog.Entry e = entries.get(row.keyText());
            int attempts = e != null && !attemptsOnRow ? e.attempts() : row.retryCount();
            rows.add(new FailedRow(row.withRetryCount(attempts), e != null ? e.reason() : (String) r[1], attempts,
                    e == null ? null : e.at()));
        }
        return rows;
    }

    List<OutboxRow> waiting(int limit) {
        OutboxStatements.Statement waiting = statements.get("waiting");
        List<OutboxRow> rows = jdbc.query(waiting.sql(), (rs, n) -> reader.read(rs),
                waiting.values(Map.of(Param.LIMIT, limit)));
        if (log == null || attemptsOnRow || rows.isEmpty()) {
            return rows;
        }
        Map<String, RejectionLog.Entry> entries = log.entries(rows.stream().map(OutboxRow::keyText).toList());
        return rows.stream().map(r -> entries.containsKey(r.keyText())
                ? r.withRetryCount(entries.get(r.keyText()).attempts()) : r).toList();
    }

    /** See {@link OutboxStore#retry}. */
    int retry(List<FailedRow> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        List<String> keys = rows.stream().map(r -> r.row().keyText()).toList();
        if (mapping.markMode() == MarkMode.DELETE) {
            return log.reset(keys);
        }
        OutboxStatements.Statement retry = statements.get("retry");
        int changed = 0;
        for (FailedRow r : rows) {
            changed += jdbc.update(retry.sql(), retry.values(Map.of(Param.KEY, r.row().key())));
        }
        if (log != null) {
            log.reset(keys);
        } else if (lastResort != null) {
            lastResort.clear(keys); // the row's own columns hold its attempts: a parked entry is all there was
        }
        return changed;
    }

    Backlog backlog() {
        OutboxStatements.Statement count = statements.get("backlog.pending");
        Long pending = jdbc.queryForObject(count.sql(), Long.class, count.values(Map.of()));
        Instant oldest = null;
        OutboxColumn time = OutboxStoreStatements.backlogTime(mapping);
        if (time != null && pending != null && pending > 0) {
            OutboxStatements.Statement first = statements.get("backlog.oldest");
            List<Instant> found = jdbc.query(first.sql(),
                    (rs, n) -> mapping.kind(time).readInstant(rs, 1, mapping.naiveZone()), first.values(Map.of()));
            oldest = found.isEmpty() ? null : found.get(0);
        }
        long failedRows;
        if (mapping.markMode() == MarkMode.STATUS) {
            OutboxStatements.Statement failed = statements.get("backlog.failed");
            Long n = jdbc.queryForObject(failed.sql(), Long.class, failed.values(Map.of()));
            failedRows = n == null ? 0 : n;
        } else {
            failedRows = log.countFailed();
        }
        return new Backlog(pending == null ? 0 : pending, oldest, failedRows);
    }

    /** See {@link OutboxStore#deletePublishedBefore}. */
    int deletePublishedBefore(Instant cutoff, int batchSize) {
        OutboxStatements.Statement select = statements.get("retention.select");
        List<Object> keys = jdbc.query(select.sql(), (rs, n) -> rs.getObject(1),
                select.values(Map.of(Param.CUTOFF, cutoff, Param.LIMIT, batchSize)));
        if (keys.isEmpty()) {
            return 0;
        }
        OutboxStatements.Statement delete = statements.get("retention.delete");
        Map<Param, Object> values = Map.of(Param.CUTOFF, cutoff, Param.KEYS, keys);
        jdbc.update(delete.sql(values), delete.values(values));
        // the number selected, not the number deleted: a row changed meanwhile is skipped, and the next batch goes on
        return keys.size();
    }
}
