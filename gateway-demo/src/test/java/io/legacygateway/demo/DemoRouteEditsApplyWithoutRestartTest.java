package io.legacygateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.inbox.InboxConsumer;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The demo as a user runs it, with its own route reload (the demo profile's {@code camel.main.routes-reload-*}) over a
 * copy of {@code routes/demo}: editing the YAML files while orders flow. A bad edit of the orders relay or of the
 * wallet consumer is refused naming the parameter while the route keeps working; good edits of the wallet consumer
 * replace it each time, and its old listener sessions are gone from the broker. H2 in memory.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("demo")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class DemoRouteEditsApplyWithoutRestartTest {

    private static final Path ROUTES = copyOfTheDemoRoutes();
    private static final String QUEUE = "demo.orders.events";

    @DynamicPropertySource
    static void inMemory(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.demo.url", () -> "jdbc:h2:mem:demo-edits-legacy;DB_CLOSE_DELAY=-1");
        registry.add("gateway.datasources.wallet.url", () -> "jdbc:h2:mem:demo-edits-wallet;DB_CLOSE_DELAY=-1");
        registry.add("spring.artemis.embedded.persistent", () -> "false");
        registry.add("demo.order-interval", () -> "100ms");
        registry.add("demo.poison-messages", () -> "false");
        registry.add("camel.main.routes-include-pattern", () -> "file:" + ROUTES + "/*.yaml");
        registry.add("camel.main.routes-reload-directory", ROUTES::toString);
    }

    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    InboxConsumerFactory consumers;
    @Autowired
    CamelContext camel;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    ConnectionFactory connectionFactory;
    @Autowired
    MeterRegistry meters;

    @Test
    void aBadPollIntervalOfTheOrdersRelayIsRefusedAndItsRowsKeepBeingMarked() {
        ListAppender<ILoggingEvent> log = capture();
        OutboxRelay before = relays.relay("demo-orders").orElseThrow();
        edit("outbox-orders.yaml", "value: 500ms", "value: fast");
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !errors(log).isEmpty());
        assertThat(errors(log)).singleElement().asString().contains("outbox-orders.yaml",
                "route 'outbox-relay-demo-orders'", "outbox-relay 'demo-orders' parameter 'pollInterval'");
        JdbcTemplate legacy = new JdbcTemplate(dataSources.get("demo", "test"));
        int marked = published(legacy);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> published(legacy) >= marked + 5);
        assertThat(relays.relay("demo-orders")).containsSame(before);
        assertThat(camel.getRouteController().getRouteStatus("outbox-relay-demo-orders"))
                .isEqualTo(ServiceStatus.Started);
        edit("outbox-orders.yaml", "value: fast", "value: 500ms");
    }

    @Test
    void walletConsumerEditsReplaceItAndLeaveOnlyTheNewListenerSessionsOnTheQueue() {
        ListAppender<ILoggingEvent> log = capture();
        InboxConsumer before = consumer();
        edit("inbox-wallet.yaml", "value: demo.orders.events", "value: demo.orders.events\n"
                + "      - name: concurrentConsumers\n        value: \"none\"");
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> !errors(log).isEmpty());
        assertThat(errors(log)).singleElement().asString().contains("inbox-wallet.yaml",
                "route 'inbox-consumer-demo-wallet'", "inbox-consumer 'demo-wallet' parameter 'concurrentConsumers'");
        assertThat(consumer()).isSameAs(before);
        assertApplying();

        QueueProbe broker = new QueueProbe(connectionFactory);
        String current = "none";
        for (String sessions : List.of("2", "3", "1", "2")) {
            InboxConsumer replaced = consumer();
            edit("inbox-wallet.yaml", "value: \"" + current + "\"", "value: \"" + sessions + "\"");
            current = sessions;
            Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(consumers.consumers()).filteredOn(c -> c.name().equals("demo-wallet")).singleElement()
                        .isNotSameAs(replaced);
                assertThat(camel.getRouteController().getRouteStatus("inbox-consumer-demo-wallet"))
                        .isEqualTo(ServiceStatus.Started);
                assertThat(broker.queueAttribute(QUEUE, "consumerCount")).as("listener sessions on the queue")
                        .isEqualTo(Long.parseLong(sessions));
            });
            assertApplying();
        }
        assertThat(meters.find("gateway.inbox.applied").tag("consumer", "demo-wallet").counters()).hasSize(1);
    }

    /** The wallet consumer applies order events now. */
    private void assertApplying() {
        double applied = meters.counter("gateway.inbox.applied", "consumer", "demo-wallet").count();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                meters.counter("gateway.inbox.applied", "consumer", "demo-wallet").count() >= applied + 3);
    }

    private InboxConsumer consumer() {
        return consumers.consumers().stream().filter(c -> c.name().equals("demo-wallet")).findFirst().orElseThrow();
    }

    private static int published(JdbcTemplate legacy) {
        return legacy.queryForObject("SELECT COUNT(*) FROM outbox WHERE status = 'PUBLISHED'", Integer.class);
    }

    /** Replaces {@code from} by {@code to} in the route file, saved as an editor does: written beside it, moved in. */
    private static void edit(String file, String from, String to) {
        try {
            String yaml = Files.readString(ROUTES.resolve(file));
            assertThat(yaml).contains(from);
            String edited = yaml.replace(from, to);
            Path staging = Files.createDirectories(ROUTES.resolveSibling("staging")).resolve(file);
            Files.writeString(staging, edited);
            Files.move(staging, ROUTES.resolve(file), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ListAppender<ILoggingEvent> capture() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        ((Logger) LoggerFactory.getLogger("io.legacygateway.reload.RouteEdits")).addAppender(appender);
        return appender;
    }

    private static List<String> errors(ListAppender<ILoggingEvent> log) {
        return log.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    private static Path copyOfTheDemoRoutes() {
        try {
            Path copy = Files.createDirectories(Files.createTempDirectory("demo-route-edits-").resolve("routes"));
            try (Stream<Path> files = Files.list(StandaloneArtemis.repositoryRoot().resolve("routes/demo"))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                    Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
