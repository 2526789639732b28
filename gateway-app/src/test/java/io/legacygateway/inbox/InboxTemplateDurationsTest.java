package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnPostgres;
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
 * with each documented form, must reach the consumer's settings as the same duration, and the waits of the transaction
 * step's retry while the database is unreachable must be 1 s doubling up to it. The retry is the step's own: no
 * processor of the route is wrapped in a Camel error handler that redelivers (it would copy every exchange before
 * every step in case it had to). Default left out: the default {@code 30s}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class InboxTemplateDurationsTest extends InboxTestSupport {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
    }

    @ParameterizedTest(name = "maxBackoff {0}")
    @CsvSource({"500ms, 500", "30s, 30000", "5m, 300000", "1h30m, 5400000", "PT30S, 30000", "PT1M30S, 90000",
            "30000, 30000", "'', 30000"})
    void maxBackoffBoundsTheWaitsOfTheRetryWhileTheDatabaseIsUnreachable(String given, long millis) {
        String consumer = unique("durations");
        String routeId = startConsumer(consumer, unique("it.durations"),
                given == null || given.isEmpty() ? Map.of() : Map.of("maxBackoff", given));

        Duration maxBackoff = consumer(consumer).settings().maxBackoff();
        assertThat(maxBackoff).isEqualTo(Duration.ofMillis(millis));
        List<Long> waits = new ArrayList<>();
        long wait = 0;
        for (int i = 0; i < 15; i++) {
            wait = DatabaseOutage.nextWait(wait, maxBackoff);
            waits.add(wait);
        }
        assertThat(waits.get(0)).as("first retry").isEqualTo(Math.min(1000, millis));
        for (int i = 1; i < waits.size(); i++) {
            assertThat(waits.get(i)).as("doubling up to maxBackoff")
                    .isEqualTo(Math.min(2 * waits.get(i - 1), millis));
        }
        assertThat(waits.get(waits.size() - 1)).as("what it waits at most").isEqualTo(millis);
        assertThat(redeliveringErrorHandlers(camel.getRoute(routeId).navigate()))
                .as("no step of the route is wrapped in a Camel error handler that redelivers").isEmpty();
    }

    private static List<RedeliveryErrorHandler> redeliveringErrorHandlers(Navigate<Processor> node) {
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
                found.addAll(redeliveringErrorHandlers(next));
            }
        }
        return found;
    }
}
