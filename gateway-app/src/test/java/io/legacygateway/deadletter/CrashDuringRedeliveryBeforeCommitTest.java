package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import jakarta.jms.ConnectionFactory;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The failure window of a dead letter's move: after its copy was sent to the original queue, before the transaction
 * that also takes it off the dead-letter queue commits. Opened twice, deterministically: a failure thrown there (as a
 * gateway crash would leave the session), and the standalone broker killed (kill -9) while the move waits there.
 * Either way the dead letter is still on its queue exactly once, no copy reached the original queue, the run stops
 * and says so; the next redelivery moves it once and the consumer applies it once. The window is the broker's, so
 * one inbox database (PostgreSQL) suffices.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "gateway.dead-letters.depth-interval=0")
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class CrashDuringRedeliveryBeforeCommitTest extends DeadLetterTestSupport {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
        StandaloneBroker.register(registry);
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void aFailureAfterTheCopyWasSentBeforeTheCommitLeavesTheDeadLetterOnItsQueueAndNoCopy() throws Exception {
        String queue = unique("it.dlq.fail");
        String route = startConsumer(unique("wallet"), queue, Map.of());
        EventEnvelope first = order("OrderCreated", "zed", "1");
        EventEnvelope second = order("OrderCreated", "zed", "10");
        EventEnvelope third = order("OrderCreated", "zed", "100");
        send(queue, first, second, third);
        awaitDeadLetters(queue, 3);
        stopRoute(route);
        openWallet("zed");
        redeliveryFaults.failAfterSendBeforeCommitOnce(second.id());

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, false));

        assertThat(report.items()).extracting(RedeliveryReport.Item::eventId, RedeliveryReport.Item::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(first.id(), RedeliveryOutcome.MOVED),
                        org.assertj.core.groups.Tuple.tuple(second.id(), RedeliveryOutcome.FAILED),
                        org.assertj.core.groups.Tuple.tuple(third.id(), RedeliveryOutcome.NOT_ATTEMPTED));
        assertThat(report.error()).contains("simulated crash");
        assertThat(report.items().get(1).detail()).contains("rolled back, still on " + deadLetterQueue(queue));
        assertThat(deadLetters(queue)).extracting(m -> property(m, "ce_id")).as("still there, once each")
                .containsExactly(second.id(), third.id());
        assertThat(browse(queue)).extracting(m -> property(m, "ce_id")).as("only the committed copy")
                .containsExactly(first.id());
        assertThat((String) last(audit("dlq.redeliver")).get("detail")).contains("moved 1").contains("failed 1")
                .contains("not attempted 1");

        RedeliveryReport again = redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, false));

        assertThat(again.moved()).isEqualTo(2);
        assertThat(deadLetters(queue)).isEmpty();
        assertThat(browse(queue)).extracting(m -> property(m, "ce_id"))
                .containsExactly(first.id(), second.id(), third.id());
        startRoute(route);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> browse(queue).isEmpty());
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> total("zed").compareTo(new BigDecimal("111")) == 0);
        assertThat(inboxRows(first.id()) + inboxRows(second.id()) + inboxRows(third.id())).isEqualTo(3);
    }

    @Test
    void theBrokerKilledAfterTheCopyWasSentBeforeTheCommitLosesAndDoublesNothing() throws Exception {
        StandaloneArtemis broker = StandaloneArtemis.shared();
        String queue = unique("it.dlq.kill");
        String route = startConsumer(unique("wallet"), queue, Map.of());
        EventEnvelope first = order("OrderCreated", "zed", "1");
        EventEnvelope second = order("OrderCreated", "zed", "10");
        send(queue, first, second);
        awaitDeadLetters(queue, 2);
        stopRoute(route);
        openWallet("zed");
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        redeliveryFaults.pauseAfterSendBeforeCommitOnce(second.id(), reached, release);

        CompletableFuture<RedeliveryReport> run = CompletableFuture.supplyAsync(() -> {
            try {
                return redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, false));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(reached.await(60, TimeUnit.SECONDS)).as("the move of the second waits before its commit").isTrue();
        broker.kill();
        release.countDown();
        RedeliveryReport report = run.get(120, TimeUnit.SECONDS);
        broker.start();

        assertThat(report.items()).extracting(RedeliveryReport.Item::eventId, RedeliveryReport.Item::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(first.id(), RedeliveryOutcome.MOVED),
                        org.assertj.core.groups.Tuple.tuple(second.id(), RedeliveryOutcome.FAILED));
        assertThat(report.error()).startsWith("stopped at " + report.items().get(1).messageId());
        assertThat(deadLetters(queue)).extracting(m -> property(m, "ce_id")).as("back after the restart, once")
                .containsExactly(second.id());
        assertThat(browse(queue)).extracting(m -> property(m, "ce_id")).as("the uncommitted copy is gone")
                .containsExactly(first.id());

        RedeliveryReport again = redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, false));

        assertThat(again.moved()).isEqualTo(1);
        assertThat(deadLetters(queue)).isEmpty();
        assertThat(browse(queue)).extracting(m -> property(m, "ce_id")).containsExactly(first.id(), second.id());
        startRoute(route);
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> total("zed").compareTo(new BigDecimal("11")) == 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browse(queue).isEmpty());
        assertThat(total("zed")).as("each applied once").isEqualByComparingTo("11");
    }
}
