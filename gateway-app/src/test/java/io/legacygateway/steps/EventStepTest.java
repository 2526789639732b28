package io.legacygateway.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The step forms a relay and an inbox accept: each language, an endpoint, and what is refused with its parameter. */
class EventStepTest {

    private static CamelContext camel;

    @BeforeAll
    static void start() throws Exception {
        camel = new DefaultCamelContext();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:shape").routeId("shape").setBody(simple("shaped ${body}")).setHeader("ce_type",
                        constant("Shaped"));
                from("direct:publishes").routeId("publishes").to("direct:inner");
                from("direct:inner").routeId("inner").to("jms:queue:elsewhere");
            }
        });
        camel.start();
    }

    @AfterAll
    static void stop() {
        camel.stop();
    }

    private static Exchange exchange(String body) {
        Exchange e = new DefaultExchange(camel);
        e.getIn().setBody(body);
        e.getIn().setHeader("ce_type", "InvoiceIssued");
        return e;
    }

    @Test
    void jqReshapesJson() throws Exception {
        EventStep step = EventStep.parse("transform", "jq:{id: .no, total: (.net + .tax)}", false).compile(camel);
        Object value = step.apply(exchange("{\"no\":\"I-1\",\"net\":10,\"tax\":2}"));
        assertThat(value).isInstanceOf(JsonNode.class);
        assertThat(value.toString()).isEqualTo("{\"id\":\"I-1\",\"total\":12}");
    }

    @Test
    void xpathReadsXml() throws Exception {
        EventStep step = EventStep.parse("transform", "xpath:string(/invoice/@no)", false).compile(camel);
        Object value = step.apply(exchange("<invoice no=\"I-7\"><total>3</total></invoice>"));
        assertThat(camel.getTypeConverter().convertTo(String.class, value)).isEqualTo("I-7");
    }

    @Test
    void simplePredicateFilters() throws Exception {
        EventStep step = EventStep.parse("filter", "simple:${header.ce_type} != 'Internal'", true).compile(camel);
        assertThat(step.matches(exchange("{}"))).isTrue();
        Exchange internal = exchange("{}");
        internal.getIn().setHeader("ce_type", "Internal");
        assertThat(step.matches(internal)).isFalse();
    }

    @Test
    void directRouteReplacesBodyAndHeaders() throws Exception {
        EventStep step = EventStep.parse("steps", "direct:shape", false).compile(camel);
        Exchange e = exchange("x");
        assertThat(step.apply(e)).isEqualTo("shaped x");
        assertThat(e.getMessage().getHeader("ce_type")).isEqualTo("Shaped");
        assertThat(step.forbiddenSteps(camel)).isEmpty();
    }

    @Test
    void routeThatPublishesIsNamed() {
        EventStep step = EventStep.parse("relay 'billing': steps", "direct:publishes", false).compile(camel);
        assertThat(step.forbiddenSteps(camel)).singleElement().asString()
                .contains("relay 'billing': steps", "route 'inner'", "jms:queue:elsewhere");
    }

    @Test
    void unknownFormNamesTheParameter() {
        assertThatThrownBy(() -> EventStep.parse("relay 'billing': transform", "groovy:body", false))
                .hasMessageContaining("relay 'billing': transform").hasMessageContaining("simple, jq, xpath");
        assertThatThrownBy(() -> EventStep.parse("relay 'billing': filter", "direct:x", true))
                .hasMessageContaining("relay 'billing': filter").hasMessageContaining("is an endpoint");
    }

    @Test
    void badExpressionFailsAtCompileNamingTheParameter() {
        assertThatThrownBy(() -> EventStep.parse("relay 'billing': transform", "jq:{{{", false).compile(camel))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("relay 'billing': transform")
                .hasMessageContaining("does not compile");
    }

    @Test
    void throwingStepThrows() {
        EventStep step = EventStep.parse("transform", "jq:.a.b.c", false).compile(camel);
        assertThatThrownBy(() -> step.apply(exchange("not json"))).isInstanceOf(Exception.class);
    }
}
