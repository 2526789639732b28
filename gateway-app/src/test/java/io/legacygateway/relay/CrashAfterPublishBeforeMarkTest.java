package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Failure window: the broker confirmed a batch, then the relay died before its mark committed. The rows are still
 * pending, so the relay publishes them again with the same event ids and content, hence the same duplicate ids; the
 * broker's duplicate detection ({@code _AMQ_DUPL_ID}) drops the copies, also when the resent batch mixes old and new rows (Artemis rolls back a
 * whole transaction with one duplicate in it: the relay must then resend one by one, not give up or mark blindly).
 *
 * <p>Runs on each real database ({@code Postgres…}, {@code MariaDb…}) with the embedded broker, and with the standalone
 * broker restarted inside the window ({@link StandaloneBrokerCrashAfterPublishBeforeMarkTest}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class CrashAfterPublishBeforeMarkTest extends RelayTestSupport {

    @Autowired
    MeterRegistry meters;

    /** What happens in the window besides the crash, for example a broker restart. */
    protected void insideTheWindow() {
    }

    @Test
    void crashAfterPublishBeforeMarkRepublishesWithTheSameIdsAndTheBrokerDropsTheCopies() {
        crashAndResend(Map.of());
    }

    /** A step shapes each event again on the resend: the same event, the same duplicate id, dropped by the broker. */
    @Test
    void crashAfterPublishBeforeMarkWithAStepRepublishesTheSameShapedEvents() {
        crashAndResend(Map.of("transform", "jq:{n, shaped: true}",
                "filter", "simple:${header.ce_type} == 'OrderChanged'"));
    }

    /** With {@code alsoPublish}: the event and its copy in another version are both resent, and both dropped. */
    @Test
    void crashAfterPublishBeforeMarkWithCopiesResendsEachVersionAndTheBrokerDropsTheCopies() {
        String queue = unique("it.crash.v1");
        String copies = unique("it.crash.v2");
        String relayName = unique("crash-copies");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(rows.insert("order-" + (i % 2), "OrderChanged", "{\"n\":" + i + "}"));
        }
        OutboxRelay relay = relay(relayName, "queue:" + queue, Map.of("alsoPublish", "2@queue:" + copies,
                "asVersion.2", "jq:{number: .n}"));
        faults.crashOnceAfterPublish(relayName);

        assertThat(drain(relay)).isZero();
        assertThat(rows.count("PENDING")).isEqualTo(4);
        assertThat(broker.count(queue)).isEqualTo(4);
        assertThat(broker.count(copies)).isEqualTo(4);

        insideTheWindow();
        assertThat(drain(relay)).isEqualTo(4);

        assertThat(broker.drain(queue).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList())
                .as("each event exactly once").containsExactlyElementsOf(ids);
        assertThat(broker.drain(copies).stream().map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList())
                .as("each copy exactly once").containsExactlyElementsOf(ids);
        assertThat(rows.count("PUBLISHED")).isEqualTo(4);
    }

    private void crashAndResend(Map<String, Object> parameters) {
        String queue = unique("it.crash");
        String relayName = unique("crash");
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            first.add(rows.insert("order-" + (i % 3), "OrderChanged", "{\"n\":" + i + "}"));
        }
        OutboxRelay relay = relay(relayName, "queue:" + queue, parameters);
        faults.crashOnceAfterPublish(relayName);

        assertThat(drain(relay)).as("nothing counts as published when the mark did not commit").isZero();
        assertThat(rows.count("PENDING")).isEqualTo(5);
        assertThat(broker.count(queue)).as("but the broker has the batch").isEqualTo(5);

        insideTheWindow();
        List<String> added = List.of(rows.insert("order-0", "OrderChanged", "{\"n\":5}"),
                rows.insert("order-9", "OrderChanged", "{\"n\":6}"));
        assertThat(drain(relay)).isEqualTo(7);

        List<List<String>> batches = faults.publishedBatches(relayName);
        assertThat(batches).hasSize(2);
        assertThat(batches.get(0)).isEqualTo(first);
        assertThat(batches.get(1)).as("republished with the same event ids, then the new rows")
                .containsExactlyElementsOf(concat(first, added));
        List<String> onQueue = broker.drain(queue).stream()
                .map(m -> QueueProbe.property(m, EnvelopeMessages.ID)).toList();
        assertThat(onQueue).as("each event exactly once").containsExactlyElementsOf(concat(first, added));
        assertThat(rows.count("PUBLISHED")).isEqualTo(7);
        assertThat(rows.count("PENDING")).isZero();
        assertThat(meters.counter("gateway.outbox.duplicate.ids", "relay", relayName).count())
                .as("a resend the attempt log explains is not an unexplained duplicate").isZero();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
