package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.GatewayProcess;
import io.legacygateway.testsupport.HaltingGateway;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TestDatabase;
import io.legacygateway.testsupport.XaTransactionLog;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * {@code transactionMode: XA} across a crash of the gateway's process ({@link HaltingGateway}: {@link Runtime#halt}
 * inside a relay cycle), on a real database and the standalone broker; the gateway is then started again on the same
 * object store.
 *
 * <ul>
 *   <li>Crash after both branches are prepared, before commit: the row stays locked by its prepared branch (no relay
 *       can claim it) and nothing is on the queue; after the restart, recovery commits both branches: the event is on
 *       the queue exactly once and the row is marked, without a second attempt.</li>
 *   <li>Crash between the two prepares (no record written): recovery rolls the prepared branch back (presumed abort,
 *       branches of its own node only) and the relay publishes the row again, once.</li>
 *   <li>Crash before prepare: nothing happened on either side; after the restart the row is published once.</li>
 *   <li>Crash after both prepares, restarted while the broker is away: the restarted gateway's
 *       {@code gateway_xa_in_doubt} and readiness detail {@code inDoubt} read 1 (the crashed process's record, from
 *       the object store) while recovery can commit the database's branch only; once the broker is back, recovery
 *       commits its branch and both read 0: the event once on the queue, one attempt.</li>
 * </ul>
 */
@Tag("xa-crash") // left out of the default run for its length: -Pxa-crash-windows (docs/testing.md)
abstract class XaCrashWindowContractTest {

    private static final Duration START = Duration.ofSeconds(120);

    @TempDir
    Path workDir;

    private String url;
    private OutboxRows rows;
    private QueueProbe broker;
    private StandaloneArtemis artemis;
    private Path objectStore;
    private int starts;

    /** The database this class runs against: its {@code @OnPostgres}, {@code @OnMariaDb} or {@code @OnH2}. */
    protected TestDatabase database() {
        return TestDatabase.of(getClass());
    }

    /** The database's prepared (in-doubt) branches of this test's gateway (node {@code nodeId}). */
    protected abstract int preparedBranches(OutboxRows rows, String nodeId);

    /**
     * Rolls back the prepared branches this test's gateway left (a test that failed before the restart's recovery):
     * they would hold their row locks, and the schema's drop at the JVM's exit would wait for them.
     */
    protected abstract void rollBackPrepared(OutboxRows rows, String nodeId);

    @AfterEach
    void noBranchLeftInDoubt() {
        rollBackPrepared(rows, nodeId());
    }

    /** The test's transaction node name: in every Xid, so its branches can be told from others on the server. */
    protected String nodeId() {
        return "gw-crash-" + database().name().toLowerCase(Locale.ROOT);
    }

    @BeforeEach
    void cleanOutbox() {
        url = LegacyDatabases.directUrl("legacy", database(), getClass());
        rows = new OutboxRows(new DriverManagerDataSource(url, database().username(), ""));
        rows.clear();
        // each test's gateway has an object store of its own, so it is another holder of the node id than the last
        // test's, whose claim has not lapsed yet: this test starts as a fresh deployment would
        rows.jdbc().update("DELETE FROM gateway_xa_node");
        artemis = StandaloneArtemis.shared();
        broker = new QueueProbe(artemis.adminConnectionFactory());
        objectStore = XaTransactionLog.fresh();
    }

    @Test
    void aCrashBetweenPrepareAndCommitIsCompletedByRecoveryAfterTheRestart() throws Exception {
        String queue = "it.xa.crash." + UUID.randomUUID().toString().substring(0, 8);
        String id = rows.insert("order-1", "OrderCreated", "{\"n\":1}");
        GatewayProcess.Running crashed = gateway(queue, "before-commit");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);
        assertThat(XaTransactionLog.transactionRecords(objectStore))
                .as("Narayana's record of the prepared transaction is in gateway.transactions.log-dir").isEqualTo(1);
        assertThat(XaTransactionLog.defaultStoreIn(workDir.resolve("run-1")))
                .as("no store of Narayana's own in the working directory").isFalse();

        assertThat(rows.status(id)).as("the mark is prepared, not committed").isEqualTo("PENDING");
        assertThat(preparedBranches(rows, nodeId())).as("the database holds the prepared branch").isEqualTo(1);
        assertThat(broker.count(queue)).as("the broker's branch is prepared, not delivered").isZero();

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("recovery commits both branches").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> "PUBLISHED".equals(rows.status(id)) && broker.count(queue) == 1);
            assertThat(preparedBranches(rows, nodeId())).isZero();
        } finally {
            restarted.stop();
        }
        assertThat(eventIds(queue)).as("exactly once").containsExactly(id);
        assertThat(attempts(id)).as("recovery completed the first attempt; the relay never sent it again")
                .isEqualTo(1);
    }

    @Test
    void aCrashBetweenTheTwoPreparesIsRolledBackByRecoveryAndPublishedAgain() throws Exception {
        String queue = "it.xa.between." + UUID.randomUUID().toString().substring(0, 8);
        String id = rows.insert("order-3", "OrderCreated", "{\"n\":3}");
        GatewayProcess.Running crashed = gateway(queue, "between-prepares");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);

        assertThat(rows.status(id)).isEqualTo("PENDING");
        assertThat(preparedBranches(rows, nodeId())).as("the database's branch, enlisted first, is prepared")
                .isEqualTo(1);
        assertThat(broker.count(queue)).isZero();

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("recovery rolls the orphan back, the relay publishes the row again")
                    .atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(500))
                    .until(() -> "PUBLISHED".equals(rows.status(id)) && broker.count(queue) == 1);
            assertThat(preparedBranches(rows, nodeId())).isZero();
        } finally {
            restarted.stop();
        }
        assertThat(eventIds(queue)).as("exactly once").containsExactly(id);
        assertThat(attempts(id)).as("no record: presumed abort, then a second attempt").isEqualTo(2);
    }

    @Test
    void aCrashBeforePrepareLeavesNothingOnEitherSide() throws Exception {
        String queue = "it.xa.early." + UUID.randomUUID().toString().substring(0, 8);
        String id = rows.insert("order-2", "OrderCreated", "{\"n\":2}");
        GatewayProcess.Running crashed = gateway(queue, "before-prepare");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);

        assertThat(rows.status(id)).isEqualTo("PENDING");
        assertThat(preparedBranches(rows, nodeId())).isZero();
        assertThat(broker.count(queue)).isZero();

        GatewayProcess.Running restarted = gateway(queue, "");
        try {
            Awaitility.await("the restarted relay publishes the row").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> "PUBLISHED".equals(rows.status(id)) && broker.count(queue) == 1);
        } finally {
            restarted.stop();
        }
        assertThat(eventIds(queue)).as("exactly once").containsExactly(id);
    }

    @Test
    void aCrashAfterBothPreparesStaysInDoubtAfterTheRestartUntilRecoveryCommitsIt() throws Exception {
        String queue = "it.xa.indoubt." + UUID.randomUUID().toString().substring(0, 8);
        String id = rows.insert("order-4", "OrderCreated", "{\"n\":4}");
        GatewayProcess.Running crashed = gateway(queue, "before-commit");
        assertThat(crashed.awaitExit(START)).as(crashed.output()).isEqualTo(HaltingGateway.STATUS);
        artemis.kill(); // away at the restart: recovery can commit the database's branch, not the broker's
        int port = freePort();
        GatewayProcess.Running restarted = null;
        try {
            restarted = gateway(queue, "", "--server.port=" + port);
            GatewayProcess.Running running = restarted;
            try {
                Awaitility.await("recovery commits the database's branch").atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> "PUBLISHED".equals(rows.status(id)) && inDoubt(port) == 1);
            } catch (ConditionTimeoutException e) {
                throw new AssertionError("row " + rows.status(id) + ", alive " + running.alive() + ", prepared "
                        + preparedBranches(rows, nodeId()) + "\n" + probe(port, "/actuator/prometheus") + "\n"
                        + probe(port, "/actuator/health/readiness") + "\n" + running.output(), e);
            }
            assertThat(preparedBranches(rows, nodeId())).isZero();
            assertThat(readinessInDoubt(port)).as("the readiness detail").isEqualTo(1);
            artemis.start();
            Awaitility.await("recovery commits the broker's branch").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> inDoubt(port) == 0 && broker.count(queue) == 1);
            assertThat(readinessInDoubt(port)).isZero();
        } finally {
            if (!artemis.running()) {
                artemis.start();
            }
            if (restarted != null) {
                restarted.stop();
            }
        }
        assertThat(eventIds(queue)).as("exactly once").containsExactly(id);
        assertThat(attempts(id)).as("recovery completed the first attempt").isEqualTo(1);
    }

    /** {@code gateway_xa_in_doubt} as the restarted gateway's Prometheus endpoint exports it. */
    private static double inDoubt(int port) throws Exception {
        String text = get(port, "/actuator/prometheus");
        Matcher m = Pattern.compile("(?m)^gateway_xa_in_doubt(\\{[^}]*})? (\\S+)$").matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("gateway_xa_in_doubt is not exported");
        }
        return Double.parseDouble(m.group(2));
    }

    /** The readiness group's {@code xaTransactions} detail {@code inDoubt} (the group may answer 503). */
    private static int readinessInDoubt(int port) throws Exception {
        JsonNode health = new ObjectMapper().readTree(get(port, "/actuator/health/readiness"));
        return health.at("/components/xaTransactions/details/inDoubt").asInt(-1);
    }

    private static String get(int port, String path) throws Exception {
        // as a VIEWER (the child runs the test profile's users): anonymous callers get no health details
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        "test-viewer:test-viewer-secret".getBytes(StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    private static String probe(int port, String path) {
        try {
            String body = get(port, path);
            return body.lines().filter(l -> l.contains("xa") || l.startsWith("{")).toList().toString();
        } catch (Exception e) {
            return path + ": " + e;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private List<String> eventIds(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    private int attempts(String eventId) {
        return rows.attemptsOfEvent(eventId);
    }

    /**
     * A gateway with one XA relay of the outbox to {@code queue}, halting in {@code window} (empty: never), with
     * {@code extra} arguments.
     */
    private GatewayProcess.Running gateway(String queue, String window, String... extra) throws Exception {
        Path routes = Files.createDirectories(workDir.resolve("routes"));
        Files.writeString(routes.resolve("xa.yaml"), String.join("\n",
                "- templatedRoute:",
                "    routeTemplateRef: outbox-relay",
                "    routeId: outbox-relay-xa",
                "    parameters:",
                "      - { name: relay, value: xa }",
                "      - { name: dataSource, value: legacy }",
                "      - { name: destination, value: 'queue:" + queue + "' }",
                "      - { name: pollInterval, value: 200ms }",
                "      - { name: transactionMode, value: XA }", ""));
        // not StandaloneArtemis.shared(): that starts the broker again, and a test restarts the gateway without it
        List<String> args = new ArrayList<>(List.of("--spring.profiles.active=test",
                "--gateway.datasources.legacy.url=" + url,
                "--gateway.datasources.legacy.username=" + database().username(),
                "--gateway.datasources.legacy.password=",
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
        args.addAll(List.of(extra));
        // each start in a working directory of its own: recovery must find the records in the configured store,
        // not in a folder of the crashed process's working directory
        Path cwd = Files.createDirectories(workDir.resolve("run-" + (++starts)));
        return GatewayProcess.start(HaltingGateway.class, cwd, args.toArray(String[]::new));
    }
}
