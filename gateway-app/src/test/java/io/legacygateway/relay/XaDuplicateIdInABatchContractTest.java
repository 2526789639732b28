package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: an XA relay's batch holds an event the broker already has (the same duplicate id: an operator's
 * retry of a published row, a reloaded table, a switch from LOCAL after a crash between publish and mark). Artemis
 * fails the prepare of the broker's branch, the global transaction rolls back, and the same rows are claimed first
 * again: without a way out, for ever, and every later row waits. As LOCAL does, the relay then sends that batch one
 * event at a time, each in a broker transaction of its own: the broker names the events it holds (confirmed: it has
 * them), stores the others, and the rows are marked; no row is charged an attempt.
 *
 * <p>A subclass per database sets the datasource, the standalone broker and the XA object store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class XaDuplicateIdInABatchContractTest extends RelayTestSupport {

    @DynamicPropertySource
    static void brokerAndTransactionLog(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    @Autowired
    MeterRegistry meters;

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void aBatchWithAnEventTheBrokerHoldsIsPublishedOneAtATimeNotRetriedForEver() {
        String queue = unique("it.xa.dup");
        String name = unique("xa-dup");
        List<String> first = List.of(rows.insert("order-1", "OrderCreated", "{\"n\":1}"),
                rows.insert("order-2", "OrderCreated", "{\"n\":2}"));
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("transactionMode", "XA"));
        assertThat(drain(relay)).isEqualTo(2);

        // an operator's retry of a published row: pending again, the same event, which the broker holds
        rows.jdbc().update("UPDATE outbox SET status = 'PENDING', published_at = NULL WHERE id = ?", first.get(0));
        List<String> later = List.of(rows.insert("order-1", "OrderPaid", "{\"n\":3}"),
                rows.insert("order-3", "OrderCreated", "{\"n\":4}"));

        int published = 0;
        for (int i = 0; i < 3 && rows.count("PENDING") > 0; i++) {
            published += drain(relay);
        }
        assertThat(rows.count("PENDING")).as("the batch with the duplicate is not claimed first for ever").isZero();
        assertThat(published).isEqualTo(3);
        assertThat(rows.count("PUBLISHED")).isEqualTo(4);
        assertThat(rows.charged())
                .as("a duplicate is no failed attempt of any row").isZero();
        List<String> all = new ArrayList<>(first);
        all.addAll(later);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .as("each event once on the queue, in order: the broker dropped the retried row's copy")
                .containsExactlyElementsOf(all);

        String next = rows.insert("order-4", "OrderCreated", "{\"n\":5}");
        assertThat(drain(relay)).as("the next batch in one global transaction again").isEqualTo(1);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(next);
    }
}
