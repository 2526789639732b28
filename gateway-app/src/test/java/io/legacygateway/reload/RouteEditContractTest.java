package io.legacygateway.reload;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.relay.RelayOperatorSurface;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Editing a relay's route file while the gateway runs (Camel's route reload, checked by {@link RouteEdits}): a bad edit
 * is refused naming the parameter and the running relay goes on publishing, untouched; a good one replaces the relay
 * without a restart and releases the old one's connection, thread and gauges. The route file is a copy in a temporary
 * folder; each edit is written beside it and moved in, as an editor saves.
 */
abstract class RouteEditContractTest {

    static final String ROUTE = "outbox-relay-edits";
    static final String FILE = "edits.yaml";

    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    CamelContext camel;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    ConnectionFactory connectionFactory;
    @Autowired
    MeterRegistry meters;

    private ListAppender<ILoggingEvent> log;

    /** The route folder, its reload and the relay's datasource {@code legacy} (registered by the subclass). */
    static void routes(DynamicPropertyRegistry registry, Path folder) {
        write(folder, relay("queue:edits.a", "200ms", ""));
        registry.add("camel.main.routes-include-pattern", () -> "file:" + folder + "/*.yaml");
        registry.add("camel.main.routes-reload-enabled", () -> "true");
        registry.add("camel.main.routes-reload-directory", folder::toString);
        registry.add("camel.main.routes-reload-pattern", () -> "*.yaml");
        registry.add("camel.main.routes-reload-remove-all-routes", () -> "false");
    }

    abstract Path folder();

    /** A new, empty route folder of that name. */
    static Path temporaryFolder(String name) {
        try {
            return Files.createDirectories(Files.createTempDirectory("route-edits-").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @BeforeEach
    void runningAsConfigured() {
        log = new ListAppender<>();
        log.start();
        ((Logger) LoggerFactory.getLogger(RouteEdits.class)).addAppender(log);
        OutboxRelay before = relays.relay("edits").orElseThrow();
        write(folder(), relay("queue:edits.a", "200ms", ""));
        awaitReplaced(before);
        outbox().clear();
    }

    @AfterEach
    void detach() {
        ((Logger) LoggerFactory.getLogger(RouteEdits.class)).detachAppender(log);
    }

    @Test
    void aBadParameterValueIsRefusedNamingItAndTheOldRelayKeepsPublishing() {
        assertRefusedAndStillPublishing(relay("queue:edits.a", "200ms", param("batchSize", "0")),
                "outbox-relay 'edits' parameter 'batchSize'", "route '" + ROUTE + "'");
    }

    @Test
    void anUnknownParameterIsRefusedNamingItAndTheOldRelayKeepsPublishing() {
        assertRefusedAndStillPublishing(relay("queue:edits.a", "200ms", param("pollIntervall", "1s")),
                "outbox-relay 'edits' parameter 'pollIntervall': unknown parameter", "route '" + ROUTE + "'");
    }

    @Test
    void aYamlSyntaxErrorIsRefusedAndTheOldRelayKeepsPublishing() {
        assertRefusedAndStillPublishing(relay("queue:edits.a", "200ms", "").replace("parameters:",
                "parameters: [\n"), FILE, "line ");
    }

    @Test
    void aChangedDestinationTakesEffectWithoutRestart() {
        OutboxRelay before = relays.relay("edits").orElseThrow();
        write(folder(), relay("queue:edits.b", "200ms", ""));
        OutboxRelay after = awaitReplaced(before);
        assertThat(after.settings().destination().toString()).contains("edits.b");
        assertPublishes("edits.b");
    }

    @Test
    void aTableTheDatabaseLacksIsRefusedAndTheOldRouteStartsAgainAsItWas() {
        OutboxRelay before = relays.relay("edits").orElseThrow();
        write(folder(), relay("queue:edits.a", "200ms", param("table", "no_such_outbox")));
        awaitError("no_such_outbox");
        assertThat(errors()).last().asString().contains("route '" + ROUTE + "' not replaced, started again as it was");
        OutboxRelay again = awaitReplaced(before);
        assertThat(again.settings().table().toString()).isEqualToIgnoringCase("outbox");
        assertPublishes("edits.a");
    }

    @Test
    void repeatedEditsLeaveOneRelayWithItsOwnGaugesAndReleaseTheOldConnectionsAndThreads() throws Exception {
        assertPublishes("edits.a"); // the relay holds its broker connection and its attempt-log thread
        QueueProbe broker = new QueueProbe(connectionFactory);
        long connections = broker.attribute(ResourceNames.BROKER, "connectionCount");
        for (String poll : List.of("250ms", "300ms", "350ms", "200ms")) {
            OutboxRelay before = relays.relay("edits").orElseThrow();
            write(folder(), relay("queue:edits.a", poll, ""));
            awaitReplaced(before);
            assertPublishes("edits.a");
        }
        // the last relay polls once an hour: what it holds is its own, what the earlier ones held is released
        OutboxRelay before = relays.relay("edits").orElseThrow();
        write(folder(), relay("queue:edits.a", "1h", ""));
        OutboxRelay last = awaitReplaced(before);
        assertThat(relays.relays()).extracting(OutboxRelay::name).containsOnlyOnce("edits");
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("relay-edits-attempt-log"))
                    .as("the released relays' attempt-log threads").isEmpty();
            assertThat(broker.attribute(ResourceNames.BROKER, "connectionCount"))
                    .as("the released relays' broker connections").isLessThan(connections);
        });
        outbox().insert("edits-1", "Changed", "{}");
        outbox().insert("edits-2", "Changed", "{}");
        assertThat(last.sampleBacklog()).isTrue();
        Collection<Gauge> pending = meters.find("gateway.outbox.pending").tag("relay", "edits").gauges();
        assertThat(pending).hasSize(1);
        assertThat(pending.iterator().next().value()).as("read from the last relay's sample").isEqualTo(2.0);
        assertThat(ManagementFactory.getPlatformMBeanServer().getAttribute(RelayOperatorSurface.name("edits"),
                "Pending")).as("the relay's MBean is the last relay's").isEqualTo(2L);
    }

    private void assertRefusedAndStillPublishing(String yaml, String... named) {
        OutboxRelay before = relays.relay("edits").orElseThrow();
        write(folder(), yaml);
        awaitError(named[0]);
        assertThat(errors()).hasSize(1);
        assertThat(errors().get(0)).contains("Route file", FILE, "not reloaded, the running routes are unchanged")
                .contains(named);
        assertThat(relays.relay("edits")).containsSame(before);
        assertThat(camel.getRouteController().getRouteStatus(ROUTE)).isEqualTo(ServiceStatus.Started);
        assertPublishes("edits.a");
        assertThat(relays.relay("edits")).containsSame(before);
    }

    /** Rows inserted now reach {@code queue} and are marked. */
    private void assertPublishes(String queue) {
        OutboxRows outbox = outbox();
        QueueProbe broker = new QueueProbe(connectionFactory);
        broker.drain(queue);
        String a = outbox.insert("edits-a", "Changed", "{}");
        String b = outbox.insert("edits-b", "Changed", "{}");
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(outbox.status(a)).isEqualTo("PUBLISHED");
            assertThat(outbox.status(b)).isEqualTo("PUBLISHED");
        });
        assertThat(broker.drain(queue)).hasSize(2);
    }

    private OutboxRelay awaitReplaced(OutboxRelay before) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(relays.relay("edits")).isPresent().get().isNotSameAs(before);
            assertThat(camel.getRouteController().getRouteStatus(ROUTE)).isEqualTo(ServiceStatus.Started);
        });
        return relays.relay("edits").orElseThrow();
    }

    private void awaitError(String named) {
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .untilAsserted(() -> assertThat(errors()).anySatisfy(e -> assertThat(e).contains(named)));
    }

    private List<String> errors() {
        return log.list.stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    private OutboxRows outbox() {
        return new OutboxRows(dataSources.get("legacy", "test"));
    }

    static String relay(String destination, String pollInterval, String extra) {
        return """
                - templatedRoute:
                    routeTemplateRef: outbox-relay
                    routeId: outbox-relay-edits
                    parameters:
                      - name: relay
                        value: edits
                      - name: dataSource
                        value: legacy
                      - name: destination
                        value: %s
                      - name: pollInterval
                        value: %s
                %s""".formatted(destination, pollInterval, extra);
    }

    static String param(String name, String value) {
        return "      - name: " + name + "\n        value: \"" + value + "\"\n";
    }

    /** Writes the route file as an editor saves it: beside the folder, then moved in at once. */
    static void write(Path folder, String yaml) {
        try {
            Path staging = Files.createDirectories(folder.resolveSibling(folder.getFileName() + "-staging"));
            Path file = Files.writeString(staging.resolve(FILE), yaml);
            Files.move(file, folder.resolve(FILE), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
