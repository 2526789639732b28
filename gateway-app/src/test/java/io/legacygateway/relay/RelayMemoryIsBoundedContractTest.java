package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.apache.camel.CamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * What one relay holds in memory is bounded, and running out of it is a failure like the others: a payload over
 * {@code maxPayloadBytes} parks its row with its size (before, any size was published, and 500 rows of 10 MB were one
 * batch); a batch stops at {@code maxBatchBytes} of payload and the next takes the rest at once; an {@link Error} such
 * as OutOfMemoryError in a cycle is counted as a rolled-back cycle and the relay backs off (before, neither: the next
 * timer tick ran the same batch again at once). Real database (subclasses), embedded broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class RelayMemoryIsBoundedContractTest extends RelayTestSupport {

    @Autowired
    MeterRegistry meters;
    @Autowired
    CamelContext camel;

    private double counter(String name, OutboxRelay relay) {
        return meters.counter(name, "relay", relay.name()).count();
    }

    private List<String> ids(String queue) {
        return broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
    }

    private static String payloadOf(int chars) {
        String blob = "x".repeat(chars - 11);
        return "{\"blob\":\"" + blob + "\"}";
    }

    @Test
    void aPayloadOverMaxPayloadSizeParksItsRowWithItsSize() {
        String queue = unique("it.payload-limit");
        OutboxRelay relay = relay(unique("payload-limit"), "queue:" + queue,
                Map.of("maxPayloadBytes", "1KB", "maxAttempts", "1"));
        String big = rows.insert("order-a", "OrderCreated", payloadOf(1025));
        String fits = rows.insert("order-a", "OrderPaid", payloadOf(1024));

        assertThat(drain(relay)).isEqualTo(1);
        assertThat(rows.status(big)).isEqualTo("FAILED");
        assertThat(rows.jdbc().queryForObject("SELECT last_error FROM outbox WHERE id = ?", String.class, big))
                .isEqualTo("payload: 1025 bytes, more than maxPayloadBytes (1024 bytes)");
        assertThat(ids(queue)).containsExactly(fits);
        assertThat(counter("gateway.outbox.rejected", relay)).isEqualTo(1.0);
    }

    @Test
    void aBatchStopsAtMaxBatchBytesAndTheNextTakesTheRestAtOnce() {
        String queue = unique("it.batch-bytes");
        OutboxRelay relay = relay(unique("batch-bytes"), "queue:" + queue, Map.of("maxBatchBytes", "10KB"));
        List<String> ids = IntStream.range(0, 10)
                .mapToObj(i -> rows.insert("order-" + (i % 2), "OrderChanged", payloadOf(4096))).toList();

        assertThat(drain(relay)).as("one drain: the held-back rows follow at once").isEqualTo(10);
        assertThat(faults.publishedBatches(relay.name())).extracting(List::size)
                .as("4 KiB rows, 10 KiB a batch: the row that reaches it is the batch's last")
                .containsExactly(3, 3, 3, 1);
        assertThat(ids(queue)).containsExactlyElementsOf(ids);
    }

    @Test
    void anErrorInACycleIsCountedAndTheRelayBacksOff() {
        String queue = unique("it.error");
        AtomicBoolean once = new AtomicBoolean(true);
        OutboxRelay relay = relay(unique("error"), "queue:" + queue, Map.of("pollInterval", "1h", "maxBackoff", "1h"),
                List.of((name, published) -> {
                    if (once.getAndSet(false)) {
                        throw new OutOfMemoryError("Java heap space (test)");
                    }
                }));
        List<String> ids = rows.insertSequence("order-e", 3);

        assertThatThrownBy(() -> drain(relay)).isInstanceOf(OutOfMemoryError.class);
        assertThat(counter("gateway.outbox.publish.failures", relay)).as("a rolled-back cycle").isEqualTo(1.0);
        assertThat(ids).allSatisfy(id -> assertThat(rows.status(id)).isEqualTo("PENDING"));

        relay.process(new DefaultExchange(camel)); // the timer's next tick, within the backoff
        assertThat(ids).as("the timer does not run the batch again at once")
                .allSatisfy(id -> assertThat(rows.status(id)).isEqualTo("PENDING"));

        assertThat(drain(relay)).as("after the backoff (drain does not wait for it)").isEqualTo(3);
        assertThat(ids(queue)).as("the resend of the first attempt dropped by the broker").containsExactlyElementsOf(ids);
    }
}
