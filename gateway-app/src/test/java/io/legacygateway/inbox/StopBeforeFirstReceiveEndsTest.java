package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure window: an inbox consumer stopped while its listener is still in its first receive (a route edited or a
 * gateway shut down just after it started). Spring interrupts a receive still running a receive timeout (1 s) after
 * the stop; the invoker took that interrupt for a setup failure and waited the JMS recovery interval (5 s) before it
 * ended, so the stop took 6 s per consumer. The stop must end once that receive has, and a consumer started again on
 * the same queue must still apply what arrives.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class StopBeforeFirstReceiveEndsTest extends InboxTestSupport {

    /** The receive timeout (1 s), the interrupt, and ample room for a busy machine: below the recovery interval. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(4);

    @RepeatedTest(3)
    void aConsumerStoppedInItsFirstReceiveStopsWithoutTheRecoveryInterval() throws Exception {
        String routeId = startConsumer(unique("first-receive"), unique("it.first-receive"), Map.of());

        long started = System.nanoTime();
        camel.getRouteController().stopRoute(routeId);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("stopping a consumer in its first receive").isLessThan(STOP_BOUND);
    }

    @Test
    void aConsumerStartedAgainAfterSuchAStopAppliesWhatArrives() throws Exception {
        String consumer = unique("first-receive-again");
        String queue = unique("it.first-receive-again");
        String routeId = startConsumer(consumer, queue, Map.of());
        camel.getRouteController().stopRoute(routeId);

        EventEnvelope created = orderCreated("alice", "7.00");
        send(queue, created);
        camel.getRouteController().startRoute(routeId);

        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> effects(created.id()) == 1 && inboxRows(consumer) == 1);
        assertThat(count(queue)).isZero();
    }
}
