package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.TcpProxy;
import io.legacygateway.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code wakeUp: NOTIFY} on PostgreSQL when the listening connection dies silently: the gateway reaches the database
 * through a TCP proxy, and the test makes the listener's connection a dead path (what either side sends is dropped; no
 * reset, no error), as a network or a firewall that forgot the connection does. Each time, over several periods, the
 * relay notices it by its check, logs a WARN, counts a reconnect and listens again, and a new row is published on its
 * notification: with a {@code pollInterval} of an hour nothing else could publish it in time. Before, the dead
 * connection went unnoticed, nothing was logged or counted, and rows waited for the next poll.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
class DeadListenConnectionIsNoticedTest extends RelayTestSupport {

    private static final TcpProxy PROXY = new TcpProxy("127.0.0.1", DatabaseServers.postgres().port()).start();

    @DynamicPropertySource
    static void legacyDatabaseThroughProxy(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, DeadListenConnectionIsNoticedTest.class,
                url -> url.replace(DatabaseServers.postgres().address(), "127.0.0.1:" + PROXY.port()));
    }

    @Autowired
    CamelContext camel;
    @Autowired
    ApplicationContext context;
    @Autowired
    MeterRegistry meters;

    private String routeId;
    private final ListAppender<ILoggingEvent> warnings = new ListAppender<>();

    @BeforeEach
    void notifyTriggerAndDirectRows() {
        assertThat(triggers("--data-source=legacy", "--notify", "--install")).contains("gw_outbox_outbox");
        // the test's own reads and writes go straight to the database, never through a silenced path
        rows = new OutboxRows(new DriverManagerDataSource(LegacyDatabases.directUrl("legacy", TestDatabase.POSTGRES,
                DeadListenConnectionIsNoticedTest.class), TestDatabase.POSTGRES.username(), ""));
        warnings.start();
        ((Logger) LoggerFactory.getLogger(OutboxWakeUp.class)).addAppender(warnings);
    }

    @AfterEach
    void removeRouteAndTrigger() throws Exception {
        ((Logger) LoggerFactory.getLogger(OutboxWakeUp.class)).detachAppender(warnings);
        if (routeId != null) {
            camel.getRouteController().stopRoute(routeId);
            camel.removeRoute(routeId);
        }
        triggers("--data-source=legacy", "--notify", "--remove");
    }

    @Test
    void eachSilentlyDeadListeningConnectionIsFoundLoggedCountedAndReplaced() {
        String name = unique("dead-listen");
        routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        try {
            TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                    .parameter("relay", name).parameter("dataSource", "legacy")
                    .parameter("destination", "queue:" + name).parameter("pollInterval", "1h")
                    .parameter("maxBackoff", "1s").parameter("wakeUp", "NOTIFY").add();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        OutboxWakeUp wakeUp = factory.wakeUp(name).orElseThrow();
        await().atMost(Duration.ofSeconds(30)).until(() -> wakeUp.backendPid() > 0);
        String first = rows.insert("order-1", "OrderPlaced", "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> "PUBLISHED".equals(rows.status(first)));

        for (int period = 1; period <= 3; period++) {
            int dead = wakeUp.backendPid();
            Integer clientPort = rows.jdbc().queryForObject(
                    "SELECT client_port FROM pg_stat_activity WHERE pid = ?", Integer.class, dead);
            assertThat(PROXY.silence(clientPort)).as("the listener's connection through the proxy").isTrue();
            int before = warnings.list.size();
            int deadOnes = period;

            // a check every 5 s, answered within 2 s or the connection is taken for lost
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    meters.counter("gateway.outbox.wakeup.reconnects", "relay", name).count() >= deadOnes
                            && wakeUp.backendPid() > 0 && wakeUp.backendPid() != dead);
            assertThat(meters.counter("gateway.outbox.wakeup.reconnects", "relay", name).count())
                    .as("reconnects after %d dead connections", period).isEqualTo(period);
            assertThat(warnings.list.subList(before, warnings.list.size()))
                    .filteredOn(e -> e.getLevel() == Level.WARN)
                    .extracting(ILoggingEvent::getFormattedMessage)
                    .anySatisfy(m -> assertThat(m).contains(name).contains("lost")
                            .contains("did not answer a check"));

            // the relay listens again: the notification of the next row wakes it, an hour before its next poll
            String next = rows.insert("order-1", "OrderChanged", "{\"period\":" + period + "}");
            await().atMost(Duration.ofSeconds(10)).until(() -> "PUBLISHED".equals(rows.status(next)));
            assertThat(broker.count(name)).isEqualTo(period + 1);
        }
    }

    private String triggers(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            int status = GatewayCli.execute(new TriggersCommand(), List.of(args), CommandBeans.of(context), out);
            String output = bytes.toString(StandardCharsets.UTF_8);
            assertThat(status).as(output).isZero();
            return output;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
