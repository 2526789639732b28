package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: the broker is down (killed, as in a crash) while rows wait. The relay's cycles roll back, nothing is
 * marked, no row is charged a failed attempt, failures are counted; once the broker is back every row is published
 * exactly once and marked.
 * Standalone broker process, PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class BrokerDownDuringPublishTest extends RelayTestSupport {

    @DynamicPropertySource
    static void legacyDatabaseAndBroker(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
    }

    @Autowired
    MeterRegistry meters;

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void brokerDownDuringPublishMarksNothingAndPublishesEverythingOnceTheBrokerIsBack() {
        String queue = unique("it.down");
        OutboxRelay relay = relay(unique("down"), "queue:" + queue, Map.of("batchSize", "20"));
        List<String> ids = rows.insertSequence("order-1", 50);
        StandaloneArtemis artemis = StandaloneArtemis.shared();
        artemis.kill();
        try {
            assertThat(drain(relay)).isZero();
            assertThat(drain(relay)).isZero();
            assertThat(rows.count("PENDING")).isEqualTo(50);
            assertThat(rows.count("PUBLISHED")).isZero();
            assertThat(meters.counter("gateway.outbox.publish.failures", "relay", relay.name()).count()).isEqualTo(2.0);
            assertThat(rows.charged())
                    .as("an outage charges no row an attempt").isZero();
        } finally {
            artemis.start();
        }

        assertThat(drain(relay)).isEqualTo(50);

        assertThat(rows.count("PUBLISHED")).isEqualTo(50);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactlyElementsOf(ids);
    }
}
