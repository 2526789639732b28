package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.camel.Channel;
import org.apache.camel.Navigate;
import org.apache.camel.Processor;
import org.apache.camel.processor.errorhandler.RedeliveryErrorHandler;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure (issue 9): the template handed the text of {@code maxBackoff} ({@code 30s}) to Camel's
 * {@code maximumRedeliveryDelay}, which does not convert it, so the in-process retry of a database outage never ran.
 * Every duration parameter of the {@code inbox-consumer} template ({@code maxBackoff} is the only one), instantiated
 * with each documented form, must reach Camel's error handler of the route as the same number of milliseconds, and
 * the consumer's settings must hold the same duration. Default left out: the default {@code 30s}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
class InboxTemplateDurationsTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES, InboxTemplateDurationsTest.class);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
    }

    @ParameterizedTest(name = "maxBackoff {0}")
    @CsvSource({"500ms, 500", "30s, 30000", "5m, 300000", "1h30m, 5400000", "PT30S, 30000", "PT1M30S, 90000",
            "30000, 30000", "'', 30000"})
    void maxBackoffReachesCamelsRedeliveryPolicyAsMilliseconds(String given, long millis) {
        String consumer = unique("durations");
        String routeId = startConsumer(consumer, unique("it.durations"),
                given == null || given.isEmpty() ? Map.of() : Map.of("maxBackoff", given));

        assertThat(consumer(consumer).settings().maxBackoff()).isEqualTo(Duration.ofMillis(millis));
        List<RedeliveryErrorHandler> handlers = errorHandlers(camel.getRoute(routeId).navigate());
        assertThat(handlers).as("the route's processor is wrapped in the error handler").isNotEmpty();
        for (RedeliveryErrorHandler h : handlers) {
            assertThat(h.getRedeliveryPolicy().getMaximumRedeliveryDelay()).as("what Camel waits at most")
                    .isEqualTo(millis);
            assertThat(h.getRedeliveryPolicy().getRedeliveryDelay()).as("first retry").isEqualTo(1000);
        }
    }

    private static List<RedeliveryErrorHandler> errorHandlers(Navigate<Processor> node) {
        List<RedeliveryErrorHandler> found = new ArrayList<>();
        if (node == null || !node.hasNext()) {
            return found;
        }
        for (Processor p : node.next()) {
            if (p instanceof Channel c && c.getErrorHandler() instanceof RedeliveryErrorHandler h) {
                found.add(h);
            }
            if (p instanceof Navigate<?> n) {
                @SuppressWarnings("unchecked")
                Navigate<Processor> next = (Navigate<Processor>) n;
                found.addAll(errorHandlers(next));
            }
        }
        return found;
    }
}
