package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.attempts.Observation;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedCamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Steps of a relay, per kind, on every database: a transform replaces the data (golden envelope), a filter marks and
 * counts what it drops, a step that throws parks only its own row, a route step changes type, version and
 * destination, a step route that publishes is refused, and the cycle route shows each step with its event count (a
 * relay without steps: one processor per batch).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class RelayStepsContractTest extends RelayTestSupport {

    private final ObjectMapper json = new ObjectMapper();

    @Autowired
    MeterRegistry meters;
    @Autowired
    CamelContext camel;

    private String insert(String id, String type, String payload) {
        rows.jdbc().update("INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, event_version, payload,"
                + " occurred_at) VALUES (?, 'Invoice', 'I-1', ?, 1, ?, ?)", id, type, payload,
                Timestamp.from(Instant.parse("2026-12-01T10:00:00Z")));
        return id;
    }

    @Test
    void transformReplacesTheDataAsTheGoldenEnvelopeShows() throws Exception {
        String queue = unique("it.steps.transform");
        String id = insert("9d3c1f6e-0000-4000-8000-000000000001", "InvoiceIssued",
                "{\"no\":\"I-1\",\"net\":10,\"tax\":2,\"internal\":{\"clerk\":\"bob\"}}");
        OutboxRelay relay = relay(unique("transform"), "queue:" + queue,
                Map.of("transform", "jq:{invoice: .no, total: (.net + .tax)}", "source", "urn:legacy:billing"));

        assertThat(drain(relay)).isEqualTo(1);

        List<TextMessage> messages = broker.drain(queue);
        assertThat(messages).hasSize(1);
        JsonNode golden = json.readTree(getClass().getResourceAsStream("/steps/transformed-envelope.json")
                .readAllBytes());
        assertThat(json.readTree(messages.get(0).getText())).isEqualTo(golden);
        assertThat(rows.status(id)).isEqualTo("PUBLISHED");
    }

    @Test
    void filterMarksTheRowsItDropsAndCountsThem() throws Exception {
        String queue = unique("it.steps.filter");
        String kept = rows.insert("o-1", "OrderCreated", "{\"n\":1}");
        String internal = rows.insert("o-1", "OrderAudited", "{\"n\":2}");
        String after = rows.insert("o-1", "OrderPaid", "{\"n\":3}");
        String name = unique("filter");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of(
                "filter", "simple:${header.ce_type} != 'OrderAudited'", "filterReason", "internal-audit"));

        assertThat(drain(relay)).isEqualTo(2);

        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(kept, after);
        assertThat(List.of(rows.status(kept), rows.status(internal), rows.status(after)))
                .containsOnly("PUBLISHED");
        assertThat(meters.get("gateway.outbox.filtered").tag("relay", name).tag("reason", "internal-audit")
                .counter().count()).isEqualTo(1.0);
        String key = String.valueOf(rows.row(internal).get("seq"));
        List<AttemptLog.Entry> attempts = relay.attempts().attempts(List.of(key)).get(key);
        assertThat(attempts).singleElement().satisfies(a -> {
            assertThat(a.observation()).isEqualTo(Observation.FILTERED);
            assertThat(a.detail()).isEqualTo("internal-audit");
        });
    }

    @Test
    void stepThatThrowsParksOnlyItsOwnRow() throws Exception {
        String queue = unique("it.steps.throws");
        String a = rows.insert("o-1", "OrderCreated", "{\"n\":1}");
        String bad = rows.insert("o-2", "OrderCreated", "{\"n\":2,\"bad\":true}");
        String c = rows.insert("o-3", "OrderCreated", "{\"n\":3}");
        OutboxRelay relay = relay(unique("throws"), "queue:" + queue, Map.of(
                "transform", "jq:if .bad then error(\"no contract for this row\") else {n} end", "maxAttempts", "1"));

        assertThat(drain(relay)).isEqualTo(2);

        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactly(a, c);
        assertThat(rows.status(a)).isEqualTo("PUBLISHED");
        assertThat(rows.status(c)).isEqualTo("PUBLISHED");
        assertThat(rows.status(bad)).isEqualTo("FAILED");
        assertThat(rows.row(bad).get("last_error").toString())
                .contains("transform").contains("no contract for this row");
    }

    @Test
    void routeStepChangesTypeVersionAndDestination() throws Exception {
        String queue = unique("it.steps.route");
        String v2 = unique("it.steps.v2");
        String step = "direct:" + unique("contract");
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(step).routeId(step.substring(7))
                        .setHeader("ce_eventversion", constant(2))
                        .setHeader("ce_type", simple("${header.ce_type}V2"))
                        .setHeader(RelaySteps.DESTINATION, constant("queue:" + v2))
                        .transform().simple("{\"order\":\"${exchangeProperty.outboxRow.aggregateId}\"}");
            }
        });
        String id = rows.insert("o-7", "OrderCreated", "{\"n\":1}");
        OutboxRelay relay = relay(unique("route"), "queue:" + queue, Map.of("steps", step));

        assertThat(drain(relay)).isEqualTo(1);

        assertThat(broker.count(queue)).isZero();
        List<TextMessage> messages = broker.drain(v2);
        assertThat(messages).hasSize(1);
        TextMessage m = messages.get(0);
        assertThat(m.getStringProperty(EnvelopeMessages.ID)).isEqualTo(id);
        assertThat(m.getStringProperty(EnvelopeMessages.TYPE)).isEqualTo("OrderCreatedV2");
        assertThat(m.getIntProperty(EnvelopeMessages.EVENT_VERSION)).isEqualTo(2);
        JsonNode envelope = json.readTree(m.getText());
        assertThat(envelope.get("eventversion").asInt()).isEqualTo(2);
        assertThat(envelope.get("data")).isEqualTo(json.readTree("{\"order\":\"o-7\"}"));
    }

    @Test
    void alsoPublishSendsEachRowAsAnotherVersionToAnotherDestination() throws Exception {
        String v1 = unique("it.steps.v1");
        String v2 = unique("it.steps.v2");
        String a = rows.insert("o-1", "OrderCreated", "{\"customerId\":\"c-1\",\"amount\":12.5}");
        String bad = rows.insert("o-2", "OrderCreated", "{\"customerId\":\"c-2\",\"amount\":\"unknown\"}");
        String c = rows.insert("o-3", "OrderCreated", "{\"customerId\":\"c-3\",\"amount\":7}");
        OutboxRelay relay = relay(unique("copies"), "queue:" + v1, Map.of("alsoPublish", "2@queue:" + v2,
                "asVersion.2", "jq:{customer: {id: .customerId}, total: {amount: (.amount | tonumber)}}",
                "maxAttempts", "1"));

        assertThat(drain(relay)).isEqualTo(2);

        List<TextMessage> first = broker.drain(v1);
        List<TextMessage> second = broker.drain(v2);
        assertThat(first).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID)).containsExactly(a, c);
        assertThat(second).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID)).containsExactly(a, c);
        JsonNode one = json.readTree(first.get(0).getText());
        JsonNode two = json.readTree(second.get(0).getText());
        assertThat(one.get("eventversion").asInt()).isEqualTo(1);
        assertThat(one.get("data")).isEqualTo(json.readTree("{\"customerId\":\"c-1\",\"amount\":12.5}"));
        assertThat(two.get("eventversion").asInt()).isEqualTo(2);
        assertThat(second.get(0).getIntProperty(EnvelopeMessages.EVENT_VERSION)).isEqualTo(2);
        assertThat(two.get("data").get("customer").get("id").asText()).isEqualTo("c-1");
        assertThat(two.get("data").get("total").get("amount").decimalValue()).isEqualByComparingTo("12.5");
        assertThat(rows.status(a)).isEqualTo("PUBLISHED");
        assertThat(rows.status(c)).isEqualTo("PUBLISHED");
        assertThat(rows.status(bad)).as("its copy could not be made: none of its events was sent").isEqualTo("FAILED");
        assertThat(rows.row(bad).get("last_error").toString()).contains("asVersion.2");
    }

    @Test
    void alsoPublishWithoutItsStepIsRefusedNamingTheParameter() {
        String name = unique("no-step");
        assertThatThrownBy(() -> relay(name, "queue:x", Map.of("alsoPublish", "2@queue:y")))
                .hasMessageContaining("outbox-relay '" + name + "' parameter 'asVersion.2'")
                .hasMessageContaining("required by alsoPublish");
        assertThatThrownBy(() -> relay(unique("no-entry"), "queue:x", Map.of("asVersion.3", "jq:.")))
                .hasMessageContaining("parameter 'asVersion.3'").hasMessageContaining("no alsoPublish entry");
    }

    @Test
    void stepRouteThatPublishesIsRefusedNamingTheParameter() throws Exception {
        String step = "direct:" + unique("publishes");
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(step).routeId(step.substring(7)).to("jms:queue:elsewhere");
            }
        });
        String name = unique("refused");
        assertThatThrownBy(() -> relay(name, "queue:x", Map.of("steps", step)))
                .hasMessageContaining("outbox-relay '" + name + "' parameter 'steps'")
                .hasMessageContaining("jms:queue:elsewhere").hasMessageContaining("must not publish or write");
    }

    @Test
    void cycleRouteShowsEachStepWithItsEventCount() throws Exception {
        String queue = unique("it.steps.visible");
        for (int i = 0; i < 5; i++) {
            rows.insert("o-" + i, i == 2 ? "OrderAudited" : "OrderCreated", "{\"n\":" + i + "}");
        }
        String name = unique("visible");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("batchSize", "3",
                "filter", "simple:${header.ce_type} != 'OrderAudited'", "transform", "jq:{n}"));

        assertThat(drain(relay)).isEqualTo(4);

        ManagedCamelContext managed = camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        assertThat(camel.getRoute(relay.cycleRoute().routeId())).isNotNull();
        assertThat(managed.getManagedProcessor("envelope-" + name).getExchangesCompleted()).isEqualTo(5);
        assertThat(managed.getManagedProcessor("filter-" + name).getExchangesCompleted()).isEqualTo(5);
        assertThat(managed.getManagedProcessor("transform-" + name).getExchangesCompleted()).isEqualTo(5);
        // two batches (3 + 2): the drain stops after the batch that was not full
        assertThat(managed.getManagedProcessor("claim-" + name).getExchangesCompleted()).isEqualTo(2);
        assertThat(managed.getManagedProcessor("publish-" + name).getExchangesCompleted()).isEqualTo(2);
        assertThat(managed.getManagedProcessor("mark-" + name).getExchangesCompleted()).isEqualTo(2);
        assertThat(broker.drain(queue)).hasSize(4);

        assertThat(drain(relay)).isZero();
        // a poll that claims nothing ends after the claim: per-event steps count events, not polls
        assertThat(managed.getManagedProcessor("claim-" + name).getExchangesCompleted()).isEqualTo(3);
        assertThat(managed.getManagedProcessor("envelope-" + name).getExchangesCompleted()).isEqualTo(5);
        assertThat(managed.getManagedProcessor("publish-" + name).getExchangesCompleted()).isEqualTo(2);
    }

    @Test
    void cycleRouteWithoutStepsMakesEachBatchsEventsInOneProcessor() throws Exception {
        String queue = unique("it.steps.none");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(rows.insert("o-1", "OrderCreated", "{\"n\":" + i + "}"));
        }
        String name = unique("nosteps");
        OutboxRelay relay = relay(name, "queue:" + queue, Map.of("batchSize", "3"));

        assertThat(drain(relay)).isEqualTo(5);

        ManagedCamelContext managed = camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class);
        assertThat(managed.getManagedProcessor("events-" + name).getExchangesCompleted()).isEqualTo(2);
        assertThat(managed.getManagedProcessor("envelope-" + name)).isNull();
        assertThat(managed.getManagedProcessor("each-event-" + name)).isNull();
        assertThat(managed.getManagedProcessor("mark-" + name).getExchangesCompleted()).isEqualTo(2);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID))
                .containsExactlyElementsOf(ids);
        assertThat(ids).allSatisfy(id -> assertThat(rows.status(id)).isEqualTo("PUBLISHED"));
    }
}
