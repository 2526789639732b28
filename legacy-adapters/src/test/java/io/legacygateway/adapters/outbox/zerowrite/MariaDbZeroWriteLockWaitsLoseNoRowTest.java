package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.transaction.TransactionDefinition.ISOLATION_READ_COMMITTED;

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
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The window: on MariaDB a row's mark is its statement's start, and a statement that waits for a table lock
 * ({@code LOCK TABLES outbox READ} here; an {@code ALTER TABLE} cut-over or a backup's {@code FLUSH TABLES WITH READ
 * LOCK} alike) starts its InnoDB transaction only after the wait. An explicit transaction whose insert waited 3 s then
 * showed in {@code INNODB_TRX} 3 s later than its row, and the horizon passed the row before the commit; a JDBC batch
 * (the MariaDB driver's defaults: {@code Bulk_execute}) was not counted as a running statement at all, and the horizon
 * passed its rows while it waited. Those rows were never published. Here both writer kinds wait behind a lock holder
 * while the relay cycles at its default settle time (1 s); every committed row must be published, once.
 */
class MariaDbZeroWriteLockWaitsLoseNoRowTest {

    private static final Duration LOCK_HELD = Duration.ofSeconds(3);

    private TestSchema schema;
    private ZeroWriteReader reader;
    private final List<Long> published = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService writers = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() {
        schema = TestSchema.create(ContractDatabase.MARIADB, getClass(), GatewaySchema.OUTBOX, GatewaySchema.RELAY);
        TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                new TableName(null, "outbox"), "table");
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE, Map.of(),
                "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
        RejectionLog log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "locks/outbox",
                "stateDataSource");
        reader = new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping, schema.dataSource(),
                schema.dialect(), log, "zw", "locks/outbox", StartFrom.BEGINNING, Duration.ofSeconds(1), p -> p);
    }

    @AfterEach
    void tearDown() throws Exception {
        writers.shutdownNow();
        writers.awaitTermination(30, TimeUnit.SECONDS);
        schema.close();
    }

    @Test
    void anExplicitTransactionWhoseInsertWaitedForATableLockLosesNoRow() throws Exception {
        insertCommitted("before");
        try (Connection holder = connect(); Connection app = connect()) {
            app.setAutoCommit(false);
            lock(holder);
            Future<?> insert = writers.submit(() -> {
                try (Statement s = app.createStatement()) {
                    return s.executeUpdate(row("late"));
                }
            });
            relayWhileWritersWait(1);
            unlock(holder);
            insert.get(30, TimeUnit.SECONDS);
            insertCommitted("after");
            // the transaction stays open after its insert, longer than the settle time
            cycleFor(LOCK_HELD);
            app.commit();
        }

        OutboxFixture.assertEveryCommittedRowPublishedOnce(schema.jdbc(), published, this::cycle,
                Duration.ofSeconds(60));
    }

    @Test
    void anAutocommitBatchThatWaitedForATableLockLosesNoRow() throws Exception {
        insertCommitted("before");
        try (Connection holder = connect(); Connection app = connect()) {
            lock(holder);
            Future<int[]> batch = writers.submit(() -> {
                try (PreparedStatement ps = app.prepareStatement("INSERT INTO outbox (aggregate_type, aggregate_id,"
                        + " event_type, payload) VALUES ('Order', ?, 'OrderCreated', '{}')")) {
                    for (int i = 0; i < 3; i++) {
                        ps.setString(1, "batch-" + i);
                        ps.addBatch();
                    }
                    return ps.executeBatch();
                }
            });
            List<String> commands = relayWhileWritersWait(1);
            assertThat(commands).as("the waiting batch, as the driver sends it by default").containsExactly(
                    "Bulk_execute");
            unlock(holder);
            batch.get(30, TimeUnit.SECONDS);
            insertCommitted("after");
        }

        OutboxFixture.assertEveryCommittedRowPublishedOnce(schema.jdbc(), published, this::cycle,
                Duration.ofSeconds(60));
    }

    /**
     * Waits for {@code sessions} writers to wait for the lock, then runs relay cycles for {@link #LOCK_HELD}, longer
     * than the settle time; the commands of the waiting sessions.
     */
    private List<String> relayWhileWritersWait(int sessions) {
        await().atMost(Duration.ofSeconds(10)).until(() -> waiting().size() == sessions);
        List<String> commands = waiting();
        cycleFor(LOCK_HELD);
        assertThat(waiting()).as("still waiting for the lock").hasSize(sessions);
        return commands;
    }

    private List<String> waiting() {
        return schema.jdbc().queryForList("SELECT COMMAND FROM information_schema.PROCESSLIST WHERE DB = ?"
                + " AND STATE LIKE 'Waiting for table%'", String.class, schema.name());
    }

    private void cycleFor(Duration duration) {
        await().during(duration).atMost(duration.plusSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> {
            published.addAll(cycle());
            return true;
        });
    }

    /** One relay cycle, committed: the keys it claimed. */
    private List<Long> cycle() {
        return OutboxFixture.keysOf(schema.inTransaction(ISOLATION_READ_COMMITTED, tx -> reader.claim(10,
                Instant.now())));
    }

    private void insertCommitted(String aggregate) {
        schema.jdbc().update(row(aggregate));
    }

    private static String row(String aggregate) {
        return "INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload) VALUES ('Order', '" + aggregate
                + "', 'OrderCreated', '{}')";
    }

    private static void lock(Connection holder) throws SQLException {
        try (Statement s = holder.createStatement()) {
            s.execute("LOCK TABLES outbox READ");
        }
    }

    private static void unlock(Connection holder) throws SQLException {
        try (Statement s = holder.createStatement()) {
            s.execute("UNLOCK TABLES");
        }
    }

    /** A session of the application, with the MariaDB driver's defaults. */
    private Connection connect() throws SQLException {
        return DriverManager.getConnection(schema.url(), schema.database().username(), "");
    }
}
