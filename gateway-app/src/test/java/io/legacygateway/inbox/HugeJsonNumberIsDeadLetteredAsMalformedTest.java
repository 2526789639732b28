package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * JSON numbers are bound as exact decimals: beyond a bound they were stored as another value (PostgreSQL stored
 * {@code 1e131072} as 0) or made the driver write out a billion digits ({@code 1e999999999} on MariaDB). A number
 * with more than 309 digits before the decimal point or 400 after it is refused when the envelope is read: the message
 * is dead-lettered as malformed on its first delivery, with the reason, before any database work; the numbers within
 * the bound around it are applied with their exact digits.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class HugeJsonNumberIsDeadLetteredAsMalformedTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetPool(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
    }

    private final EnvelopeCodec codec = new EnvelopeCodec();

    @Test
    void aNumberBeyondTheBoundIsDeadLetteredAsMalformedAndTheOthersAreApplied() throws Exception {
        String queue = unique("it.number");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        List<String> huge = List.of("1e131072", "-5e300000", "1e999999999", "1e-999999999", "1" + "0".repeat(309),
                "0." + "0".repeat(400) + "1");
        EventEnvelope first = orderCreated("alice", "12.50");
        EventEnvelope last = orderCreated("bob", "0.01");
        List<String> bodies = new ArrayList<>();
        List<EventEnvelope> envelopes = new ArrayList<>();
        bodies.add(codec.write(first));
        envelopes.add(first);
        for (String number : huge) {
            EventEnvelope e = orderCreated("carol", "7777");
            bodies.add(codec.write(e).replace("\"amount\":7777", "\"amount\":" + number));
            envelopes.add(e);
        }
        bodies.add(codec.write(last));
        envelopes.add(last);
        sendRaw(queue, bodies, envelopes.toArray(EventEnvelope[]::new));

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadLetters(queue).size() == huge.size()
                && count(queue) == 0);
        for (Message dead : deadLetters(queue)) {
            assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("MALFORMED_ENVELOPE");
            assertThat(property(dead, DeadLetterWriter.REASON)).contains("is out of bounds: at most 309 digits"
                    + " before the decimal point");
            assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
        }
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> effects() == 2);
        assertThat(target.queryForObject("SELECT amount FROM effect_log WHERE message_id = ?", BigDecimal.class,
                first.id())).isEqualByComparingTo("12.50");
        assertThat(target.queryForObject("SELECT COUNT(*) FROM effect_log WHERE customer_id = 'carol'",
                Integer.class)).as("no number beyond the bound reached the database").isZero();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
    }
}
