package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EnvelopeVersion;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.GatewayProcess;
import io.legacygateway.testsupport.HaltingGateway;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.PreparedBranches;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TestDatabase;
import io.legacygateway.testsupport.XaTransactionLog;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * An inbox consumer with {@code transactionMode: XA} across a crash of the gateway's process ({@link HaltingGateway}:
 * {@link Runtime#halt} inside a batch's two-phase commit), on a real database and the standalone broker; the gateway
 * is then started again on the same object store.
 *
 * <ul>
 *   <li>Crash after both branches are prepared, before commit: the effect and the inbox row are prepared, not
 *       committed; after the restart, recovery commits both branches: the effect is applied once, the inbox row is
 *       there, and the message is acknowledged (the queue is empty, nothing was applied a second time).</li>
 *   <li>Crash between the two prepares (the broker's branch prepared, no record written): recovery rolls the broker's
 *       branch back (presumed abort), the message returns to the queue and the restarted gateway applies it once.</li>
 *   <li>Crash before prepare: nothing happened on either side (no effect, no inbox row, the message still on the
 *       queue); after the restart the message is applied once.</li>
 * </ul>
 */
@Tag("xa-crash") // left out of the default run for its length: -Pxa-crash-windows (docs/testing.md)
abstract class XaInboxCrashWindowContractTest {

    private static final Duration START = Duration.ofSeconds(120);

    @TempDir
    Path workDir;

    private String url;
    private JdbcTemplate jdbc;
    private QueueProbe broker;
    private Path objectStore;
    private int starts;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    /** The test's transaction node name: in every Xid, so its branches can be told from others on the server. */
    private String nodeId() {
        return "gw-inbox-crash-" + database().name().toLowerCase(Locale.ROOT);
    }

    @BeforeEach
    void cleanTables() {
        url = LegacyDatabases.directUrl("target", database(), getClass());
        jdbc = new JdbcTemplate(new DriverManagerDataSource(url, database().username(), ""));
        jdbc.execute("CREATE TABLE IF NOT EXISTS effect_log (message_id VARCHAR(255) NOT NULL, customer_id"
                + " VARCHAR(64), amount DECIMAL(12,2))");
        jdbc.update("DELETE FROM effect_log");
        jdbc.update("DELETE FROM inbox");
        broker = new QueueProbe(StandaloneArtemis.shared().adminConnectionFactory());
        objectStore = XaTransactionLog.fresh();
    }

    /** A branch left by a test that failed before the restart's recovery would hold its locks. */
    @AfterEach
    void noBranchLeftInDoubt() {
        PreparedBranches.rollBack(database(), jdbc, nodeId());
    }

    @Test
    void aCrashAfterBothBranchesPreparedIsCommittedByRecoveryAfterTheRestart() throws Exception {
        String queue = "it.xa.inbox.crash." + UUID.randomUUID().toString().substring(0, 8);
        String id = send(queue);
        GatewayProcess.Running crashed = gateway(queue, "before-commit");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);
        assertThat(XaTransactionLog.transactionRecords(objectStore))
                .as("Narayana's record of the prepared transaction is in gateway.transactions.log-dir").isEqualTo(1);
        assertThat(XaTransactionLog.defaultStoreIn(workDir.resolve("run-1")))
                .as("no store of Narayana's own in the working directory").isFalse();

        assertThat(effects(id)).as("the effect is prepared, not committed").isZero();
        assertThat(inboxRows(id)).isZero();
        assertThat(PreparedBranches.count(database(), jdbc, nodeId())).as("the database holds the prepared branch")
                .isEqualTo(1);

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("recovery commits both branches").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> effects(id) == 1 && broker.count(queue) == 0);
            assertThat(PreparedBranches.count(database(), jdbc, nodeId())).isZero();
            assertThat(inboxRows(id)).isEqualTo(1);
        } finally {
            restarted.stop();
        }
        assertThat(effects(id)).as("applied once").isEqualTo(1);
        assertThat(broker.count(queue)).as("acknowledged by the broker's committed branch").isZero();
        assertThat(broker.count("DLA::DLQ." + queue)).isZero();
    }

    @Test
    void aCrashBetweenTheTwoPreparesIsRolledBackByRecoveryAndTheMessageAppliedOnceAfterTheRestart() throws Exception {
        String queue = "it.xa.inbox.between." + UUID.randomUUID().toString().substring(0, 8);
        String id = send(queue);
        GatewayProcess.Running crashed = gateway(queue, "between-prepares");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);

        assertThat(effects(id)).isZero();
        assertThat(PreparedBranches.count(database(), jdbc, nodeId())).as("the database's branch, enlisted second,"
                + " is not prepared").isZero();

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("recovery rolls the broker's prepared branch back, the message is applied again")
                    .atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                    .until(() -> effects(id) == 1 && broker.count(queue) == 0);
            assertThat(inboxRows(id)).isEqualTo(1);
        } finally {
            restarted.stop();
        }
        assertThat(effects(id)).as("applied once").isEqualTo(1);
    }

    @Test
    void aCrashBeforePrepareLeavesNothingOnEitherSideAndTheRestartAppliesItOnce() throws Exception {
        String queue = "it.xa.inbox.early." + UUID.randomUUID().toString().substring(0, 8);
        String id = send(queue);
        GatewayProcess.Running crashed = gateway(queue, "before-prepare");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);

        assertThat(effects(id)).isZero();
        assertThat(inboxRows(id)).isZero();
        assertThat(PreparedBranches.count(database(), jdbc, nodeId())).isZero();
        assertThat(broker.count(queue)).as("the message is still on the queue").isEqualTo(1);

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("the restarted consumer applies the message").atMost(Duration.ofSeconds(180))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> effects(id) == 1 && broker.count(queue) == 0);
            assertThat(inboxRows(id)).isEqualTo(1);
        } finally {
            restarted.stop();
        }
        assertThat(effects(id)).as("applied once").isEqualTo(1);
    }

    private int effects(String id) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM effect_log WHERE message_id = ?", Integer.class, id);
    }

    private int inboxRows(String id) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM inbox WHERE message_id = ?", Integer.class, id);
    }

    /** One {@code OrderCreated} envelope on {@code queue}, as the relay publishes it; returns its id. */
    private String send(String queue) throws JMSException {
        var data = JsonNodeFactory.instance.objectNode().put("customerId", "alice").put("amount", 5);
        EventEnvelope e = new EventEnvelope(EnvelopeVersion.V1, UUID.randomUUID().toString(), "urn:test",
                "OrderCreated", "order-1", Instant.now(), EventEnvelope.JSON, 1, "Order", null, null, null, data);
        try (Connection c = StandaloneArtemis.shared().adminConnectionFactory().createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageProducer p = s.createProducer(s.createQueue(queue))) {
            p.send(EnvelopeMessages.toMessage(s, e, new EnvelopeCodec().write(e), null, null), DeliveryMode.PERSISTENT,
                    Message.DEFAULT_PRIORITY, 0L);
        }
        return e.id();
    }

    /** A gateway with one XA inbox consumer of {@code queue}, halting in {@code window} (empty: never). */
    private GatewayProcess.Running gateway(String queue, String window) throws Exception {
        Path routes = Files.createDirectories(workDir.resolve("routes"));
        Files.writeString(routes.resolve("xa.yaml"), String.join("\n",
                "- templatedRoute:",
                "    routeTemplateRef: inbox-consumer",
                "    routeId: inbox-consumer-xa",
                "    parameters:",
                "      - { name: consumer, value: xa }",
                "      - { name: dataSource, value: target }",
                "      - { name: queue, value: '" + queue + "' }",
                "      - { name: accept, value: 'OrderCreated:1' }",
                "      - { name: effectSql, value: 'INSERT INTO effect_log (message_id, customer_id, amount) VALUES"
                        + " (:id, :data.customerId, :data.amount)' }",
                "      - { name: transactionMode, value: XA }", ""));
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        List<String> args = new ArrayList<>(List.of("--spring.profiles.active=test",
                "--gateway.datasources.target.url=" + url,
                "--gateway.datasources.target.username=" + database().username(),
                "--gateway.datasources.target.password=",
                "--gateway.transactions.log-dir=" + objectStore,
                "--gateway.transactions.node-id=" + nodeId(),
                "--gateway.transactions.recovery-interval=2s",
                "--spring.artemis.mode=native", "--spring.artemis.embedded.enabled=false",
                "--spring.artemis.broker-url=" + artemis.url(),
                "--spring.artemis.user=" + StandaloneArtemis.GATEWAY_USER, "--spring.artemis.password=gateway",
                "--camel.main.routes-include-pattern=file:" + routes + "/*.yaml"));
        if (!window.isEmpty()) {
            args.add(HaltingGateway.ARGUMENT + window);
        }
        // each start in a working directory of its own: recovery must find the records in the configured store,
        // not in a folder of the crashed process's working directory
        Path cwd = Files.createDirectories(workDir.resolve("run-" + (++starts)));
        return GatewayProcess.start(HaltingGateway.class, cwd, args.toArray(String[]::new));
    }
}
