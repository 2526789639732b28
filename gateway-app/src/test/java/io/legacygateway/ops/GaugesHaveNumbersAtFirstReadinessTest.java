package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.GatewayApplication;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * At the first moment {@code /actuator/health/readiness} says UP, a scrape of {@code /actuator/prometheus} has a
 * number in every {@code gateway_*} gauge and {@code gateway_ready} is 1. Before, the sampler's first run came on its
 * schedule: the gauges read NaN, or {@code gateway_ready} 0, until the next run (up to the 15 s sample interval). A
 * gateway started as {@code java -jar} would start it (default sample interval), polled from the start.
 */
class GaugesHaveNumbersAtFirstReadinessTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void everySampledGaugeHasANumberAndGatewayReadyIsOneAtTheFirstReadinessUp() throws Exception {
        String url = LegacyDatabases.directUrl("legacy", TestDatabase.POSTGRES, getClass());
        AtomicInteger port = new AtomicInteger();
        AtomicReference<ConfigurableApplicationContext> context = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                context.set(new SpringApplicationBuilder(GatewayApplication.class).profiles("test")
                        .listeners((ApplicationListener<WebServerInitializedEvent>) e -> port.set(e.getWebServer()
                                .getPort()))
                        .run("--server.port=0",
                                "--gateway.datasources.legacy.url=" + url,
                                "--gateway.datasources.legacy.username=postgres",
                                "--camel.main.routes-include-pattern=classpath:first-readiness/*.yaml"));
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "gateway-starter");
        starter.start();
        try {
            Awaitility.await().atMost(Duration.ofMinutes(2)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(5)).until(() -> {
                        assertThat(failure.get()).as("startup").isNull();
                        return port.get() > 0 && readinessUp(port.get());
                    });
            String scrape = get(port.get(), "/actuator/prometheus").body();

            Set<String> gauges = scrape.lines().filter(l -> l.startsWith("# TYPE gateway_") && l.endsWith(" gauge"))
                    .map(l -> l.split(" ")[2]).collect(Collectors.toSet());
            assertThat(gauges).contains("gateway_ready", "gateway_outbox_pending_rows", "gateway_outbox_failed_rows",
                    "gateway_outbox_oldest_pending_age_seconds", "gateway_outbox_sample_age_seconds");
            List<String> samples = scrape.lines().filter(l -> !l.startsWith("#"))
                    .filter(l -> gauges.contains(l.split("[{ ]", 2)[0])).toList();
            assertThat(samples).as("gauge samples at the first readiness UP").isNotEmpty()
                    .noneMatch(l -> l.endsWith(" NaN"));
            assertThat(samples).contains("gateway_ready 1.0");
        } finally {
            starter.join(Duration.ofMinutes(2).toMillis());
            if (context.get() != null) {
                context.get().close();
            }
        }
    }

    private boolean readinessUp(int port) {
        try {
            HttpResponse<String> r = get(port, "/actuator/health/readiness");
            return r.statusCode() == 200 && r.body().contains("\"status\":\"UP\"");
        } catch (Exception e) {
            return false;
        }
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
