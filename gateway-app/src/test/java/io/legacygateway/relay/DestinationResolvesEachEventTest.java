package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link Destination}: the address of each event, and the names it refuses (the row is then rejected with why). */
class DestinationResolvesEachEventTest {

    @Test
    void fixedAddressIsTheSameForEveryEvent() {
        Destination d = Destination.parse("destination", "queue:orders.events");
        assertThat(d.fixed()).isTrue();
        assertThat(d.topic()).isFalse();
        assertThat(d.resolve("OrderCreated", "Order")).isEqualTo("orders.events");
        assertThat(d.resolve(null, null)).isEqualTo("orders.events");
    }

    @Test
    void placeholdersTakeTheEventsValuesInPlace() {
        Destination d = Destination.parse("destination", "topic:events.{aggregateType}.{eventType}");
        assertThat(d.fixed()).isFalse();
        assertThat(d.topic()).isTrue();
        assertThat(d.resolve("OrderCreated", "Order")).isEqualTo("events.Order.OrderCreated");
        assertThat(Destination.parse("d", "{eventType}").resolve("OrderCreated", "Order")).isEqualTo("OrderCreated");
        assertThat(Destination.parse("d", "{eventType}").fixed()).isFalse();
        assertThat(Destination.parse("d", "{eventType}{aggregateType}").resolve("A", "B")).isEqualTo("AB");
        assertThat(Destination.parse("d", "{aggregateType}-x").resolve("A", "B")).isEqualTo("B-x");
    }

    @Test
    void aNameTheEventMakesUnsafeIsRefused() {
        Destination d = Destination.parse("destination", "events.{eventType}");
        assertThat(d.resolve("Order Created", "Order")).isNull();
        assertThat(d.resolve("a/b", "Order")).isNull();
        assertThat(d.resolve("é", "Order")).isNull();
        assertThat(d.resolve("x".repeat(193), "Order")).isEqualTo("events." + "x".repeat(193));
        assertThat(d.resolve("x".repeat(194), "Order")).as("over 200 characters").isNull();
        assertThat(Destination.parse("d", "{eventType}").resolve(null, "Order")).as("empty").isNull();
        assertThat(new Destination(false, "not safe").resolve("A", "B")).isNull();
    }

    @Test
    void badPatternsFailNamingTheProperty() {
        assertThatThrownBy(() -> Destination.parse("relay 'r' destination", "queue:{other}"))
                .hasMessageContaining("relay 'r' destination").hasMessageContaining("unknown placeholder");
        assertThatThrownBy(() -> Destination.parse("relay 'r' destination", "queue:a b"))
                .hasMessageContaining("relay 'r' destination").hasMessageContaining("not a safe address name");
        assertThatThrownBy(() -> Destination.parse("relay 'r' destination", " "))
                .hasMessageContaining("relay 'r' destination").hasMessageContaining("required");
    }

    @Test
    void equalByKindAndPattern() {
        assertThat(Destination.parse("d", "topic:a.{eventType}")).isEqualTo(new Destination(true, "a.{eventType}"))
                .hasSameHashCodeAs(new Destination(true, "a.{eventType}"))
                .isNotEqualTo(new Destination(false, "a.{eventType}"));
        assertThat(Destination.parse("d", "a.b")).hasToString("queue:a.b");
    }
}
