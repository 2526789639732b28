package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TcpProxy;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the broker stored a batch's commit, and the relay never learned it (the connection lost during the
 * commit, the broker killed before its answer left, a failover): the commit's outcome is unknown. The batch is sent
 * again, in the same cycle on a new connection or after the restart, and the broker drops the copies it holds. That
 * resend is explained by the attempt that may have delivered: recorded {@code OUTCOME_UNKNOWN}, not counted in
 * {@code gateway_outbox_duplicate_ids_total} and not recorded {@code DUPLICATE} (which the reconciliation reports as
 * {@code UNEXPLAINED_BROKER_DUPLICATE}); no row is charged an attempt; every row is published, each event once on the
 * queue.
 *
 * <p>The window is deterministic: just before the broker is asked to commit the third batch
 * ({@link io.legacygateway.testsupport.RelayFaults#atBrokerCommit}), a proxy between the relay and the standalone
 * broker starts holding the broker's answers back; once the broker shows the batch on its queue (stored: its commit
 * ran), the broker is killed or the relay's connection cut. PostgreSQL, standalone broker, batches of 50.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class BrokerKilledDuringCommitIsNoUnexplainedDuplicateTest extends RelayTestSupport {

    private static final TcpProxy PROXY = new TcpProxy("127.0.0.1", StandaloneArtemis.shared().port()).start();
    private static final int BATCH = 50;

    @DynamicPropertySource
    static void legacyDatabaseAndBrokerBehindAProxy(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry, () -> "tcp://127.0.0.1:" + PROXY.port());
    }

    @AfterAll
    static void closeProxy() {
        PROXY.close();
    }

    @Autowired
    MeterRegistry meters;

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory(); // straight to the broker, not through the proxy
    }

    @Test
    void brokerKilledAfterStoringACommitAndRestartedIsNoUnexplainedDuplicate() {
        String queue = unique("it.unknown.kill");
        String name = unique("unknown-kill");
        List<String> ids = load(200);
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("batchSize", String.valueOf(BATCH)));
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        faults.atBrokerCommit(name, 3, () -> loseTheAnswer(queue, 3 * BATCH, () -> {
            artemis.kill();
            PROXY.stop(); // a killed broker refuses connections (the proxy would accept them and leave them waiting)
        }));

        try {
            assertThat(drain(relay)).as("two batches confirmed, the third's commit outcome unknown").isEqualTo(2 * BATCH);
            assertThat(rows.count("PUBLISHED")).isEqualTo(2 * BATCH);
            assertThat(meters.counter("gateway.outbox.publish.failures", "relay", name).count()).isEqualTo(1.0);
            assertThat(rows.charged()).as("an unknown outcome charges no row an attempt").isZero();
        } finally {
            artemis.start();
            PROXY.start();
        }

        assertThat(drain(relay)).as("the third batch again (the broker drops its copies), then the fourth")
                .isEqualTo(2 * BATCH);
        assertEveryRowPublishedOnce(relay, queue, ids);
        assertThat(rows.attemptStates(ids.get(2 * BATCH)))
                .as("the third batch's first attempt is on record as may-have-delivered, its resend as confirmed")
                .containsExactly("OUTCOME_UNKNOWN/ROLLED_BACK", "CONFIRMED/PUBLISHED");
    }

    @Test
    void connectionLostAfterTheBrokerStoredACommitIsNoUnexplainedDuplicateOfTheResendOnANewConnection() {
        String queue = unique("it.unknown.cut");
        String name = unique("unknown-cut");
        List<String> ids = load(200);
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("batchSize", String.valueOf(BATCH)));
        faults.atBrokerCommit(name, 3, () -> loseTheAnswer(queue, 3 * BATCH, () -> { }));

        assertThat(drain(relay)).as("the third batch resent in its cycle on a new connection").isEqualTo(4 * BATCH);
        assertThat(rows.charged()).isZero();
        assertEveryRowPublishedOnce(relay, queue, ids);
    }

    /** 200 rows over 7 aggregates, as an application under load writes them. */
    private List<String> load(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(rows.insert("order-" + (i % 7), "OrderChanged", "{\"n\":" + i + "}"));
        }
        return ids;
    }

    /**
     * On the relay's thread, just before its commit: holds the broker's answers back, and once the broker holds
     * {@code stored} messages on the queue (the commit ran), runs {@code then} (kill the broker, or nothing) and cuts
     * the relay's connections, so that the answer to the commit never arrives.
     */
    private void loseTheAnswer(String queue, int stored, Runnable then) {
        PROXY.holdReplies();
        Thread t = new Thread(() -> {
            try {
                Awaitility.await("the broker stored the batch").atMost(Duration.ofSeconds(30))
                        .until(() -> broker.count(queue) == stored);
                then.run();
            } finally {
                PROXY.cutConnections();
            }
        }, "lose-the-commit-answer");
        t.setDaemon(true);
        t.start();
    }

    private void assertEveryRowPublishedOnce(OutboxRelay relay, String queue, List<String> ids) {
        assertThat(rows.count("PUBLISHED")).isEqualTo(ids.size());
        assertThat(rows.count("PENDING")).isZero();
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .as("each event once on the queue, in order").containsExactlyElementsOf(ids);
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", relay.name()).count())
                .as("a resend after a commit whose outcome was unknown is no unexplained duplicate").isZero();
        List<String> states = new ArrayList<>();
        ids.forEach(id -> states.addAll(rows.attemptStates(id)));
        assertThat(states).as("no attempt recorded DUPLICATE (UNEXPLAINED_BROKER_DUPLICATE in the reconciliation)")
                .noneMatch(s -> s.startsWith("DUPLICATE"));
        assertThat(rows.charged()).isZero();
    }
}
