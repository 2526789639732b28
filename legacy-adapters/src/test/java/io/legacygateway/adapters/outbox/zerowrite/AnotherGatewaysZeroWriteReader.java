package io.legacygateway.adapters.outbox.zerowrite;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Another gateway on the same MariaDB server, run in a JVM of its own by
 * {@link MariaDbZeroWriteHorizonWhileTheTransactionListIsReadOftenTest}: the zero-write reader of its relay on table
 * {@code outbox} asks for the commit horizon as often as it may, one read after the other, and prints each answer on a
 * line of its own ({@value #PROVEN} or {@value #STALE}) until it is stopped.
 *
 * <p>Arguments: the JDBC URL of the database holding {@code outbox}, the user (no password).
 */
final class AnotherGatewaysZeroWriteReader {

    static final String PROVEN = "horizon proven";
    static final String STALE = "horizon stale";

    private AnotherGatewaysZeroWriteReader() {
    }

    public static void main(String[] args) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setUsername(args[1]);
        config.setPassword("");
        config.setMaximumPoolSize(4);
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            TableInspector.Table table = TableInspector.inspect(dataSource, Dialect.MARIADB,
                    new TableName(null, "outbox"), "table");
            OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE,
                    Map.of(), "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
            ZeroWriteWindows windows = new ZeroWriteWindows(dataSource, Dialect.MARIADB, mapping,
                    Duration.ofSeconds(1), p -> p);
            while (!Thread.currentThread().isInterrupted()) {
                System.out.println(windows.askOnce().proven() ? PROVEN : STALE);
                System.out.flush();
            }
        }
    }
}
