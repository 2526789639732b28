package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code transactionMode: XA} on a real database and the standalone broker: claim, publish and mark in one global
 * transaction. Each pending row reaches the queue exactly once and is marked; a second drain finds nothing. A broker
 * outage rolls the claim and the mark back with the broker's branch.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class XaOutboxRelayContractTest extends RelayTestSupport {

    @DynamicPropertySource
    static void brokerAndTransactionLog(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    @Autowired
    XaTransactions xa;
    @Autowired
    Reconciliation reconciliation;

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    private static List<String> concat(List<String> ids, String last) {
        List<String> all = new ArrayList<>(ids);
        all.add(last);
        return all;
    }

    @Test
    void publishesEachPendingRowOnceInOneGlobalTransactionAndMarksIt() {
        String queue = unique("it.xa");
        List<String> ids = List.of(rows.insert("order-1", "OrderCreated", "{\"n\":1}"),
                rows.insert("order-2", "OrderCreated", "{\"n\":2}"),
                rows.insert("order-1", "OrderPaid", "{\"n\":3}"));
        String name = unique("xa");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("transactionMode", "XA"));

        CycleOutcome first = relay.cycle();
        assertThat(first.published()).isEqualTo(3);
        assertThat(faults.branchCommits(name)).as("two branches, the database's and the broker's, committed in two"
                + " phases").isEqualTo(2);
        assertThat(relay.cycle().claimed()).as("nothing left to claim").isZero();
        assertThat(faults.branchCommits(name)).as("a cycle that claims nothing has one branch: one phase")
                .isEqualTo(2);
        String later = rows.insert("order-2", "OrderPaid", "{\"n\":4}");
        assertThat(relay.cycle().published()).as("the kept XA connection and session take the next batch").isEqualTo(1);
        assertThat(faults.branchCommits(name)).isEqualTo(4);

        assertThat(rows.count("PUBLISHED")).isEqualTo(4);
        assertThat(rows.count("PENDING")).isZero();
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .as("each event exactly once, in outbox order").containsExactlyElementsOf(concat(ids, later));
        assertThat(xa.started()).isTrue();

        relay.drain(() -> false); // writes the last cycle's finish
        assertThat(rows.jdbc().queryForList("SELECT transaction_mode FROM gateway_outbox_cycle WHERE relay = ?",
                String.class, name)).as("the attempt log says which mode each cycle ran in").isNotEmpty()
                .containsOnly("XA");
        assertThat(reconciliation.report(name, false, null).notes()).as("and so does the reconciliation report")
                .anyMatch(n -> n.startsWith("relay " + name + ": transactionMode XA"));
    }

    @Test
    void aBrokerOutageRollsTheWholeCycleBackAndTheNextCycleAfterItPublishes() {
        String queue = unique("it.xa.outage");
        String id = rows.insert("order-5", "OrderCreated", "{\"n\":5}");
        String name = unique("xa-outage");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("transactionMode", "XA"));
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        artemis.stop();
        try {
            assertThatThrownBy(relay::cycle).isInstanceOf(PublishException.class);
            assertThat(rows.status(id)).as("the claim and the mark rolled back with the broker's branch")
                    .isEqualTo("PENDING");
            assertThat(faults.branchCommits(name)).isZero();
        } finally {
            artemis.start();
        }
        Awaitility.await("the relay publishes once the broker is back").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> relay.cycle().published() == 1);
        assertThat(rows.status(id)).isEqualTo("PUBLISHED");
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(id);
    }
}
