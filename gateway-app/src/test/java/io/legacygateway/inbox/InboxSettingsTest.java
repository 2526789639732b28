package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.transactions.TransactionMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Template parameters are validated before anything touches a database or the broker; errors name the parameter. */
class InboxSettingsTest {

    private static Map<String, Object> valid() {
        Map<String, Object> p = new HashMap<>();
        p.put("consumer", "wallet");
        p.put("queue", "orders.events");
        p.put("accept", "OrderCreated:1, OrderPaid:1,OrderPaid:2");
        p.put("effectSql", "UPDATE w SET n = n + 1 WHERE id = :subject");
        p.put("effectEndpoint.OrderPaid", "direct:paid");
        return p;
    }

    private static InboxSettings parse(Map<String, Object> p) {
        return InboxSettings.parse(p, "only");
    }

    @Test
    void defaultsAndPerTypeEffects() {
        InboxSettings s = parse(valid());
        assertThat(s.dataSource()).isEqualTo("only");
        assertThat(s.inboxTable().table()).isEqualTo("inbox");
        assertThat(s.concurrentConsumers()).isEqualTo(1);
        assertThat(s.maxDeliveryAttempts()).as("the broker's").isNull();
        assertThat(s.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.maxPayloadBytes()).isEqualTo(1_048_576);
        assertThat(s.sequence()).isNull();
        assertThat(s.batchSize()).isEqualTo(100);
        assertThat(s.batchWait()).isEqualTo(Duration.ofMillis(10));
        assertThat(s.consumerWindowSize()).as("with batches").isEqualTo(256 * 1024);
        assertThat(s.transactionMode()).isEqualTo(TransactionMode.LOCAL);
        assertThat(s.accept().accepts("OrderPaid", 2)).isTrue();
        assertThat(s.accept().accepts("OrderPaid", 3)).isFalse();
        assertThat(s.effects().get("OrderCreated")).isEqualTo(new InboxSettings.Effect(
                "UPDATE w SET n = n + 1 WHERE id = :subject", null, "effectSql", "effectEndpoint"));
        assertThat(s.effects().get("OrderPaid").endpoint()).isEqualTo("direct:paid");
        assertThat(s.queue()).isEqualTo(new InboxSettings.QueueName("orders.events", "orders.events"));
    }

    @Test
    void theConsumerWindowIsZeroWithBatchesOfOneUnlessGiven() {
        Map<String, Object> p = valid();
        p.put("batchSize", "1");
        assertThat(parse(p).consumerWindowSize()).as("one message at a time, as before batches").isZero();
        p.put("consumerWindowSize", "65536");
        assertThat(parse(p).consumerWindowSize()).isEqualTo(65536);
        p.put("batchSize", "100");
        p.put("consumerWindowSize", "0");
        assertThat(parse(p).consumerWindowSize()).isZero();
    }

    @Test
    void aFullyQualifiedQueueNamesItsAddress() {
        Map<String, Object> p = valid();
        p.put("queue", "orders::billing");
        assertThat(parse(p).queue().address()).isEqualTo("orders");
        assertThat(parse(p).queue().jmsName()).isEqualTo("orders::billing");
    }

    @Test
    void errorsNameTheParameter() {
        assertError(Map.of("consumer", "Wallet!"), "inbox-consumer parameter 'consumer'");
        assertError(Map.of("transactionMode", "TWO_PHASE"), "parameter 'transactionMode'");
        assertError(Map.of("accept", "OrderCreated:0"), "parameter 'accept'");
        assertError(Map.of("effectSqll", "x"), "parameter 'effectSqll': unknown parameter");
        assertError(Map.of("effectSql.OrderShipped", "x"), "parameter 'effectSql.OrderShipped'");
        assertError(Map.of("maxBackoff", "soon"), "parameter 'maxBackoff'");
        assertError(Map.of("maxPayloadBytes", "10"), "parameter 'maxPayloadBytes': 10 is outside");
        assertError(Map.of("requireRows", "yes"), "parameter 'requireRows'");
        assertError(Map.of("sequence", "seq"), "parameter 'sequence'");
        assertError(Map.of("queue", "a::b::c"), "parameter 'queue'");
        assertError(Map.of("batchSize", "0"), "parameter 'batchSize': 0 is outside");
        assertError(Map.of("batchSize", "1001"), "parameter 'batchSize': 1001 is outside");
        assertError(Map.of("batchWait", "0s"), "parameter 'batchWait'");
        assertError(Map.of("batchWait", "2s"), "parameter 'batchWait': 2s is longer than 1s");
        assertError(Map.of("consumerWindowSize", "-1"), "parameter 'consumerWindowSize': -1 is outside");
        assertError(Map.of("consumerWindowSize", "16777217"), "parameter 'consumerWindowSize': 16777217 is outside");
        Map<String, Object> noEffect = valid();
        noEffect.remove("effectSql");
        assertThatThrownBy(() -> parse(noEffect)).hasMessageContaining("parameter 'effectSql'")
                .hasMessageContaining("'OrderCreated' has no effect");
        Map<String, Object> noDataSource = valid();
        assertThatThrownBy(() -> InboxSettings.parse(noDataSource, null)).hasMessageContaining("parameter 'dataSource'");
    }

    private static void assertError(Map<String, String> override, String expected) {
        Map<String, Object> p = valid();
        p.putAll(override);
        assertThatThrownBy(() -> parse(p)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(expected);
    }
}
