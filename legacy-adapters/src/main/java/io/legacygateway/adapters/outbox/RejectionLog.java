package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The gateway's own record of rows that cannot become events, for mark modes that cannot keep the reason on the row
 * ({@link MarkMode#DELETE}, {@link MarkMode#ZERO_WRITE}, or a table without a reason column). Table
 * {@value #TABLE} (DDL {@code ddl/<db>/relay-state.sql}), keyed by source table and row key; recording a row twice
 * (a cycle re-read after a crash) keeps one entry.
 *
 * <p>Writes go through the caller's transaction on the log's datasource: a rejection becomes visible only with the
 * cycle that made it.
 */
public final class RejectionLog {

    public static final String TABLE = "gateway_outbox_rejection";

    private final JdbcTemplate jdbc;
    private final Dialect dialect;
    private final String relay;
    private final String source;
    private final String insertSql;
    private final DataSource dataSource;
    private final String table;

    /**
     * @param source   names the legacy table across datasources, for example {@code sales/outbox}
     * @param property the parameter that chose the datasource, named when the table is missing
     * @throws IllegalArgumentException naming the property when the table does not exist
     */
    public RejectionLog(DataSource dataSource, Dialect dialect, String relay, String source, String property) {
        TableName stored = TableInspector.inspect(dataSource, dialect, new TableName(null, TABLE), property
                + " (the gateway's table " + TABLE + ", created by initialize-schema or "
                + dialect.ddlResource("relay-state.sql") + ")").name();
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.dialect = dialect;
        this.relay = relay;
        this.source = source;
        this.table = dialect.quote(stored);
        this.insertSql = dialect.sql("rejection.insert", Map.of("rejections", table));
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** The source name rows are recorded under; bound as the first value of {@link #notRejected}. */
    public String source() {
        return source;
    }

    /**
     * A claim condition that skips recorded rows; binds {@link #source()}. Only valid when the log lives in the legacy
     * table's own database.
     */
    public String notRejected(String keyText) {
        return dialect.sql("outbox.claimable.notRejected", Map.of("rejections", table,
                "keyText", keyText));
    }

    public void record(List<OutboxRejection> rejections) {
        if (rejections.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(insertSql, rejections.stream().map(r -> new Object[] {source, r.row().keyText(), relay,
                truncate(r.row().eventId(), 255), truncate(r.reason(), 2000)}).toList());
    }

    static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
