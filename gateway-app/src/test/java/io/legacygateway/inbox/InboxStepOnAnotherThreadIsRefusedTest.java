package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

/**
 * A step of the inbox route that ran on another thread than the listener's (a step handing the exchange to a thread
 * pool) would work outside the listener's JMS session and, in XA, outside its global transaction: it is refused.
 */
class InboxStepOnAnotherThreadIsRefusedTest {

    @Test
    void aStepOnAnotherThreadFailsNamingTheStepAndOnTheBatchesThreadFindsItsBatch() throws Exception {
        try (DefaultCamelContext camel = new DefaultCamelContext()) {
            Exchange exchange = new DefaultExchange(camel);
            InboxBatch batch = new InboxBatch(null, null, List.of());
            exchange.setProperty(InboxBatch.PROPERTY, batch);

            assertThat(InboxBatch.of(exchange, "inbox")).isSameAs(batch);
            Throwable elsewhere = CompletableFuture.supplyAsync(() -> {
                try {
                    InboxBatch.of(exchange, "inbox");
                    return null;
                } catch (IllegalStateException e) {
                    return e;
                }
            }).get();
            assertThat(elsewhere).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("inbox step 'inbox' ran on thread")
                    .hasMessageContaining("leaves the listener session behind");
        }
    }
}
