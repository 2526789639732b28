package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code upcast.<Type>.<version>} parameters must form chains up to the current version; errors name the parameter. */
class UpcastParametersTest {

    private static Map<String, Object> consumer(String accept, Map<String, String> upcasts) {
        Map<String, Object> p = new HashMap<>();
        p.put("consumer", "wallet");
        p.put("queue", "orders.events");
        p.put("accept", accept);
        p.put("effectSql", "UPDATE w SET n = n + 1 WHERE id = :subject");
        p.putAll(upcasts);
        return p;
    }

    private static InboxSettings parse(String accept, Map<String, String> upcasts) {
        return InboxSettings.parse(consumer(accept, upcasts), "only");
    }

    @Test
    void aChainFromEveryAcceptedVersionToTheCurrentOneIsRead() {
        InboxSettings s = parse("OrderCreated:1,OrderCreated:3,OrderPaid:1", Map.of(
                "upcast.OrderCreated.1", "jq:{customer: {id: .customerId}}",
                "upcast.OrderCreated.2", "direct:order-created-v2-to-v3"));
        assertThat(s.upcasts()).extracting(InboxSettings.Upcast::from).containsExactlyInAnyOrder(1, 2);
        assertThat(s.upcasts()).allSatisfy(u -> assertThat(u.type()).isEqualTo("OrderCreated"));
    }

    @Test
    void withoutUpcastsSeveralVersionsShareOneEffect() {
        assertThat(parse("OrderPaid:1,OrderPaid:2", Map.of()).upcasts()).isEmpty();
    }

    @Test
    void anUpcastOfATypeThatIsNotAcceptedNamesTheParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:2", Map.of("upcast.OrderPaid.1", "jq:.")))
                .hasMessageContaining("inbox-consumer 'wallet' parameter 'upcast.OrderPaid.1': 'OrderPaid' is not an"
                        + " accepted type");
    }

    @Test
    void anUpcastOfAVersionThatIsNotAcceptedNamesTheParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:2,OrderCreated:3", Map.of("upcast.OrderCreated.1", "jq:.",
                "upcast.OrderCreated.2", "jq:.")))
                .hasMessageContaining("parameter 'upcast.OrderCreated.1': version 1 of OrderCreated is not accepted");
    }

    @Test
    void anUpcastOfTheCurrentVersionNamesTheParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:2", Map.of("upcast.OrderCreated.1", "jq:.",
                "upcast.OrderCreated.2", "jq:.")))
                .hasMessageContaining("parameter 'upcast.OrderCreated.2': version 2 is the current version of"
                        + " OrderCreated");
    }

    @Test
    void aGapInTheChainNamesTheMissingParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:3", Map.of("upcast.OrderCreated.1", "jq:.")))
                .hasMessageContaining("parameter 'upcast.OrderCreated.2': missing; version 2 of OrderCreated must be"
                        + " upcast to reach the current version 3");
    }

    @Test
    void anAcceptedOlderVersionWithoutItsUpcastNamesTheMissingParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:2,OrderCreated:3",
                Map.of("upcast.OrderCreated.2", "jq:.")))
                .hasMessageContaining("parameter 'upcast.OrderCreated.1': missing");
    }

    @Test
    void aStepInNoKnownFormNamesTheParameter() {
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:2", Map.of("upcast.OrderCreated.1", "groovy:x")))
                .hasMessageContaining("parameter 'upcast.OrderCreated.1': 'groovy:x' is neither");
        assertThatThrownBy(() -> parse("OrderCreated:1,OrderCreated:2", Map.of("upcast.OrderCreated", "jq:.")))
                .hasMessageContaining("parameter 'upcast.OrderCreated': not upcast.<Type>.<version>");
    }

    @Test
    void aTypeNameWithDotsIsReadUpToTheVersion() {
        InboxSettings s = parse("billing.InvoiceIssued:1,billing.InvoiceIssued:2",
                Map.of("upcast.billing.InvoiceIssued.1", "jq:."));
        assertThat(s.upcasts()).singleElement().satisfies(u -> {
            assertThat(u.type()).isEqualTo("billing.InvoiceIssued");
            assertThat(u.from()).isEqualTo(1);
            assertThat(u.parameter()).isEqualTo("upcast.billing.InvoiceIssued.1");
        });
    }
}
