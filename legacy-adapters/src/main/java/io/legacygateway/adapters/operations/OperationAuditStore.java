package io.legacygateway.adapters.operations;

import io.legacygateway.adapters.sql.Dialect;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The audit table of operator actions, {@code gateway_operation_audit} (DDL {@code ddl/<dialect>/operations.sql}).
 * Rows are only ever inserted. {@link #record} joins the caller's transaction on the same {@link DataSource} when
 * there is one (Spring's {@link JdbcTemplate}), so that an action and its audit row commit together or not at all;
 * without one, the row is committed on its own.
 */
public final class OperationAuditStore {

    private final JdbcTemplate jdbc;
    private final String insertSql;

    public OperationAuditStore(DataSource dataSource, Dialect dialect) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.insertSql = dialect.sql("operations.audit.insert", Map.of());
    }

    /**
     * Inserts one audit row.
     *
     * @param operation what was done, for example {@code dlq.redeliver}
     * @param target    what it was done to, for example a queue or a relay
     * @param selection the filter or ids, as the operator gave them
     * @param affected  how many messages or rows were (or, in a dry run, would have been) affected
     */
    public void record(Instant at, String actor, String operation, String target, String selection, boolean dryRun,
                       int affected, String detail) {
        jdbc.update(insertSql, Timestamp.from(at), actor, operation, target, selection, dryRun, affected, detail);
    }
}
