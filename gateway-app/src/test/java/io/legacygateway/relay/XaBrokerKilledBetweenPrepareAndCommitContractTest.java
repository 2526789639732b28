package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.ops.GatewayHealthIndicators;
import io.legacygateway.reconciliation.Reconciliation;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import io.legacygateway.transactions.InDoubtTransactions.InDoubtTransaction;
import io.legacygateway.transactions.InDoubtTransactions;
import io.legacygateway.transactions.XaTransactions;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code transactionMode: XA}, the broker killed ({@code kill -9} of the standalone broker's process) after both
 * branches prepared and the transaction's record was written, before the commits: the database's branch commits, the
 * broker's commit fails, and the transaction stays in doubt until the broker is back; then Narayana's periodic
 * recovery commits the broker's prepared branch. The event reaches the queue exactly once, the row is marked by the
 * first and only attempt, and no second publish happens.
 *
 * <p>Also what an operator sees meanwhile: {@code gateway_xa_in_doubt} and the readiness detail {@code inDoubt} read
 * 1 while the broker is away and 0 once recovery completed; the reconciliation report lists the transaction with its
 * prepared branches (both, while the commit is held back; the broker's, unscanned, while it is down), and nothing
 * afterwards.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class XaBrokerKilledBetweenPrepareAndCommitContractTest extends RelayTestSupport {

    @DynamicPropertySource
    static void brokerAndTransactionLog(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    private static final String DATABASE = "datasource 'legacy'";
    private static final String BROKER = "the broker";

    @Autowired
    XaTransactions xa;
    @Autowired
    Reconciliation reconciliation;
    @Autowired
    MeterRegistry meters;
    @Autowired
    GatewayHealthIndicators.Xa health;

    private final StandaloneArtemis artemis = StandaloneArtemis.shared();

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return artemis.adminConnectionFactory();
    }

    @AfterEach
    void brokerBack() {
        if (!artemis.running()) {
            artemis.start();
        }
    }

    @Test
    void theBrokerKilledBetweenPrepareAndCommitIsCommittedByRecoveryOnceItReturns() throws Exception {
        String queue = unique("it.xa.killed");
        String id = rows.insert("order-1", "OrderCreated", "{\"n\":1}");
        String name = unique("xa-killed");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("transactionMode", "XA"));
        assertThat(inDoubtGauge()).as("nothing in doubt before").isZero();
        faults.pauseBeforeBranchCommit(name, artemis::kill);

        CompletableFuture<Object> cycle = CompletableFuture.supplyAsync(() -> {
            try {
                return relay.cycle();
            } catch (RuntimeException e) {
                return e;
            }
        });
        faults.awaitBranchCommitPaused(name);
        InDoubtTransaction held = single(reconciliation.report(name, false, null).inDoubt());
        assertThat(held.recorded()).as("every branch prepared: the commit decision is recorded").isTrue();
        assertThat(held.prepared()).as("both branches prepared").containsExactlyInAnyOrder(DATABASE, BROKER);

        faults.releaseBranchCommit(name); // kills the broker, then the branches commit: the database's only
        Object outcome = cycle.get(120, TimeUnit.SECONDS);
        assertThat(artemis.running()).isFalse();
        assertThat(outcome).as("the commit decision stands: the cycle ends normally").isInstanceOf(CycleOutcome.class);
        assertThat(outcomes("committed")).as("counted as committed, the broker's branch left to recovery")
                .isEqualTo(1.0);
        assertThat(outcomes("heuristic") + outcomes("unknown") + outcomes("rolled_back")).isZero();
        assertThat(rows.status(id)).as("the database's branch committed (%s)", outcome).isEqualTo("PUBLISHED");
        assertThat(faults.branchCommits(name)).as("both branches went to commit").isEqualTo(2);
        assertThat(inDoubtGauge()).as("the broker's branch waits for recovery").isEqualTo(1);
        Health during = health.health();
        assertThat(during.getStatus()).as("in doubt alone keeps readiness UP").isEqualTo(Status.UP);
        assertThat(during.getDetails()).containsEntry("inDoubt", 1).containsEntry("heuristics", 0L);
        Reconciliation.Report report = reconciliation.report(name, false, null);
        InDoubtTransaction waiting = single(report.inDoubt());
        assertThat(waiting.globalId()).isEqualTo(held.globalId());
        assertThat(waiting.recorded()).isTrue();
        assertThat(waiting.prepared()).as("the database's branch is committed; the broker cannot be asked").isEmpty();
        assertThat(report.inDoubt().unscanned()).singleElement().asString().startsWith(BROKER);
        assertThat(report.render()).contains(held.globalId(), "commit decided");

        artemis.start();
        Awaitility.await("recovery commits the broker's prepared branch").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500)).until(() -> inDoubtGauge() == 0);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .as("exactly once").containsExactly(id);
        assertThat(faults.publishedBatches(name)).as("no second publish").hasSize(1);
        assertThat(relay.cycle().claimed()).as("the row is marked: nothing to claim").isZero();
        assertThat(broker.count(queue)).isZero();
        assertThat(attempts(id)).isEqualTo(1);
        assertThat(health.health().getDetails()).containsEntry("inDoubt", 0);
        InDoubtTransactions after = reconciliation.report(name, false, null).inDoubt();
        assertThat(after.transactions()).isEmpty();
        assertThat(after.unscanned()).isEmpty();
    }

    private double outcomes(String outcome) {
        return meters.get("gateway.xa.transactions").tag("outcome", outcome).counter().count();
    }

    private double inDoubtGauge() {
        return meters.get("gateway.xa.in_doubt").gauge().value();
    }

    private int attempts(String eventId) {
        return rows.attemptsOfEvent(eventId);
    }

    private static InDoubtTransaction single(InDoubtTransactions inDoubt) {
        assertThat(inDoubt).as("XA started").isNotNull();
        List<InDoubtTransaction> all = inDoubt.transactions();
        assertThat(all).as(inDoubt.render(Instant.now())).hasSize(1);
        return all.get(0);
    }
}
