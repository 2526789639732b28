package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.OutboxFixture;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader.StartFrom;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The window: on MariaDB the marks are times. They were compared in whatever time zone the gateway's session had: with
 * the gateway's sessions at {@code +05:00} and the writers' at the server's zone, {@code NOW(6)} read five hours ahead
 * of the writers' {@code DATETIME} values, and once no transaction ran the horizon jumped five hours ahead (the rows of
 * the next five hours never published); {@code INNODB_TRX} shows its times in the operating system's zone whatever the
 * session's, so with a {@code TIMESTAMP} column and the gateway's sessions at {@code -03:00} the running transactions
 * looked three hours younger than they were and the horizon passed them. Now the marks are compared in one zone whatever the sessions'
 * zones: the server's for a {@code DATETIME} column, UTC for a {@code TIMESTAMP} column, whose writers may each use
 * their own zone. Zones are set per session here (never the server's): each writer keeps a row uncommitted while the
 * relay cycles for longer than the settle time, then commits; every committed row is published once.
 */
class MariaDbZeroWriteSessionTimeZonesTest {

    private static final Duration HELD_OPEN = Duration.ofSeconds(3);

    private TestSchema schema;
    private HikariDataSource gateway;
    private ZeroWriteReader reader;
    private final List<Long> published = new ArrayList<>();

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.MARIADB, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        schema.close();
    }

    @Test
    void aGatewaySessionAheadOfTheWritersOnADatetimeColumnNeverMovesItsPositionAheadOfTheirClock() throws Exception {
        startRelay("+05:00");
        // the relay's first window, before the writer begins
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle());
            return !published.isEmpty();
        });
        assertThat(schema.jdbc().queryForObject("SELECT window_low <= DATE_FORMAT(NOW(6), '%Y-%m-%dT%H:%i:%s.%f')"
                + " FROM gateway_outbox_position WHERE relay = 'zw'", Boolean.class))
                .as("the position is not ahead of the writers' clock").isTrue();
        try (Connection writer = connect(null)) {
            writeThenHoldOpen(writer, "late");
            writer.commit();
        }

        OutboxFixture.assertEveryCommittedRowPublishedOnce(schema.jdbc(), published, this::cycle,
                Duration.ofSeconds(30));
    }

    @Test
    void aGatewaySessionBehindTheWritersOnADatetimeColumnDoesNotWaitForTheZoneDifference() throws Exception {
        startRelay("-03:00");
        try (Connection writer = connect(null)) {
            writeThenHoldOpen(writer, "late");
            writer.commit();
        }

        OutboxFixture.assertEveryCommittedRowPublishedOnce(schema.jdbc(), published, this::cycle,
                Duration.ofSeconds(30));
    }

    @Test
    void writersInTheirOwnZonesOnATimestampColumnLoseNoRow() throws Exception {
        schema.jdbc().execute("ALTER TABLE outbox MODIFY created_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)");
        startRelay("-03:00");
        try (Connection west = connect("-07:00"); Connection east = connect("+05:00")) {
            writeThenHoldOpen(west, "west");
            writeThenHoldOpen(east, "east");
            west.commit();
            insertCommitted("between");
            east.commit();
        }

        OutboxFixture.assertEveryCommittedRowPublishedOnce(schema.jdbc(), published, this::cycle,
                Duration.ofSeconds(30));
    }

    /** A relay whose datasource's sessions are in {@code zone}, at the default settle time. */
    private void startRelay(String zone) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(schema.url());
        config.setUsername(schema.database().username());
        config.setPassword("");
        config.setMaximumPoolSize(4);
        config.setConnectionInitSql("SET time_zone = '" + zone + "'");
        gateway = new HikariDataSource(config);
        TableInspector.Table table = TableInspector.inspect(gateway, schema.dialect(), new TableName(null, "outbox"),
                "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        RejectionLog log = new RejectionLog(gateway, schema.dialect(), "zw", "zones/outbox", "stateDataSource");
        reader = new ZeroWriteReader(gateway, schema.dialect(), mapping, gateway, schema.dialect(), log, "zw",
                "zones/outbox", StartFrom.BEGINNING, Duration.ofSeconds(1), p -> p);
        insertCommitted("before");
    }

    /** Inserts a row on {@code writer} (in a transaction) and keeps it open while the relay cycles. */
    private void writeThenHoldOpen(Connection writer, String aggregate) throws SQLException {
        writer.setAutoCommit(false);
        try (Statement s = writer.createStatement()) {
            s.executeUpdate(row(aggregate));
        }
        insertCommitted(aggregate + "-after");
        await().during(HELD_OPEN).atMost(HELD_OPEN.plusSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle());
            return true;
        });
    }

    private List<Long> cycle() {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(gateway));
        tx.setIsolationLevel(ISOLATION_READ_COMMITTED);
        return OutboxFixture.keysOf(tx.execute(status -> reader.claim(10, Instant.now())));
    }

    private void insertCommitted(String aggregate) {
        schema.jdbc().update(row(aggregate));
    }

    private static String row(String aggregate) {
        return "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload) VALUES ('Order', '" + aggregate
                + "', 'OrderCreated', '{}')";
    }

    /** An application session in {@code zone} ({@code null}: the server's). */
    private Connection connect(String zone) throws SQLException {
        Connection c = DriverManager.getConnection(schema.url(), schema.database().username(), "");
        if (zone != null) {
            try (Statement s = c.createStatement()) {
                s.execute("SET time_zone = '" + zone + "'");
            }
        }
        return c;
    }
}
