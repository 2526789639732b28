package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * What an inbox consumer guarantees on every database, written once; each real database runs it through a small
 * subclass. Broker: the embedded Artemis, configured from artemis-config/broker.xml.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class InboxConsumerContractTest extends InboxTestSupport {

    @Test
    void appliesEachEventOnceAndRecordsItInTheInbox() {
        String queue = unique("it.inbox");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope a = orderCreated("alice", "12.50");
        EventEnvelope b = orderCreated("bob", "7");
        send(queue, a, b);

        Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(effects()).isEqualTo(2));
        assertThat(effects(a.id())).isEqualTo(1);
        assertThat(target.queryForObject("SELECT amount FROM effect_log WHERE message_id = ?",
                java.math.BigDecimal.class, a.id())).isEqualByComparingTo("12.50");
        assertThat(inboxRows(consumer)).isEqualTo(2);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(counter("gateway.inbox.applied", consumer)).isEqualTo(2.0);
    }
}
