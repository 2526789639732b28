package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader.StartFrom;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The window: a zero-write relay creates its position at every start, and on a restart the row is already there. On
 * MariaDB the colliding insert made the driver log {@code WARN ... ErrorPacket : Error: 1062-23000: Duplicate entry
 * 'zw' for key 'PRIMARY'} at every restart of every zero-write relay: a warning about nothing, which teaches operators
 * to ignore warnings. Now the insert does not collide; a restart logs no warning and keeps the position.
 */
class MariaDbZeroWriteRestartLogsNoWarningTest {

    private TestSchema schema;
    private OutboxMapping mapping;
    private RejectionLog log;

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.MARIADB, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(), "PENDING",
                "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "restart/outbox", "stateDataSource");
    }

    @AfterEach
    void tearDown() throws Exception {
        schema.close();
    }

    @Test
    void aRestartKeepsThePositionAndLogsNoWarning() {
        start();
        schema.jdbc().update("UPDATE gateway_outbox_position SET window_low = '2026-01-01T00:00' WHERE relay = 'zw'");
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        root.addAppender(events);
        try {
            start();
            start();
        } finally {
            root.detachAppender(events);
        }

        // the restarts run on this thread; another test class's pool closing meanwhile logs on its own threads
        String thread = Thread.currentThread().getName();
        List<String> warnings = events.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .filter(e -> thread.equals(e.getThreadName()))
                .map(e -> e.getLoggerName() + ": " + e.getFormattedMessage()).toList();
        assertThat(warnings).as("warnings logged by two restarts").isEmpty();
        assertThat(schema.jdbc().queryForObject("SELECT window_low FROM gateway_outbox_position WHERE relay = 'zw'",
                String.class)).as("the position kept").isEqualTo("2026-01-01T00:00");
    }

    private void start() {
        new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(), schema.dialect(), log,
                "zw", "restart/outbox", StartFrom.BEGINNING, Duration.ofSeconds(1), p -> p);
    }
}
