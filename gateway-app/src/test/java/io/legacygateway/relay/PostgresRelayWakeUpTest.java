package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.testsupport.OnPostgres;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@code wakeUp: NOTIFY} on PostgreSQL: the trigger {@code triggers --notify} installs signals the outbox's channel at
 * commit, and a relay route whose timer would not poll for an hour publishes a new row because of it, also after its
 * listening connection was killed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnPostgres
class PostgresRelayWakeUpTest extends RelayTestSupport {

    @Autowired
    CamelContext camel;
    @Autowired
    ApplicationContext context;
    @Autowired
    MeterRegistry meters;

    private final List<String> routes = new ArrayList<>();

    @BeforeEach
    void notifyTrigger() {
        assertThat(triggers("--data-source=legacy", "--notify", "--install")).contains("gw_outbox_outbox");
    }

    @AfterEach
    void removeRoutesAndTrigger() throws Exception {
        for (String id : routes) {
            camel.getRouteController().stopRoute(id);
            camel.removeRoute(id);
        }
        triggers("--data-source=legacy", "--notify", "--remove");
    }

    @Test
    void theTriggersCommandInstallsTheNotifyTriggerAndACommittedInsertNotifies() throws Exception {
        try (Connection listener = dataSources.get("legacy", "test").getConnection()) {
            listener.setAutoCommit(true);
            try (Statement s = listener.createStatement()) {
                s.execute("LISTEN gw_outbox_outbox");
            }
            rows.insert("order-1", "OrderPlaced", "{}");

            PGNotification[] arrived = listener.unwrap(PGConnection.class).getNotifications(30_000);
            assertThat(arrived).extracting(PGNotification::getName).containsExactly("gw_outbox_outbox");
            try (Statement s = listener.createStatement()) {
                s.execute("UNLISTEN *");
            }
        }
        assertThat(triggersHere("'gw_notify_outbox'")).isEqualTo(1);
        triggers("--data-source=legacy", "--notify", "--remove");
        assertThat(triggersHere("'gw_notify_outbox'")).isZero();
    }

    @Test
    void withTheCaptureTriggersTheNotifyTriggerSignalsTheCapturedChangeAndIsRemovedWithThem() throws Exception {
        rows.jdbc().execute("DROP TABLE IF EXISTS customers");
        rows.jdbc().execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100))");
        try {
            assertThat(triggers("--data-source=legacy", "--table=customers", "--notify", "--install"))
                    .contains("notify channel gw_outbox_outbox");
            try (Connection listener = dataSources.get("legacy", "test").getConnection()) {
                listener.setAutoCommit(true);
                try (Statement s = listener.createStatement()) {
                    s.execute("LISTEN gw_outbox_outbox");
                }
                rows.jdbc().update("INSERT INTO customers (id, name) VALUES (1, 'Ada')");

                PGNotification[] arrived = listener.unwrap(PGConnection.class).getNotifications(30_000);
                assertThat(arrived).extracting(PGNotification::getName).containsExactly("gw_outbox_outbox");
                try (Statement s = listener.createStatement()) {
                    s.execute("UNLISTEN *");
                }
            }
            assertThat(rows.count("PENDING")).isEqualTo(1);
            triggers("--data-source=legacy", "--table=customers", "--notify", "--remove");
            assertThat(triggersHere("'gw_notify_outbox', 'gw_capture_customers'")).isZero();
        } finally {
            rows.jdbc().execute("DROP TABLE customers");
        }
    }

    @Test
    void withAnHourOfPollIntervalAnInsertedRowIsPublishedOnItsNotification() {
        String name = unique("wakeup");
        OutboxWakeUp wakeUp = startRelay(name);
        await().atMost(Duration.ofSeconds(30)).until(() -> wakeUp.backendPid() > 0);

        String id = rows.insert("order-1", "OrderPlaced", "{}");

        await().atMost(Duration.ofSeconds(30)).until(() -> "PUBLISHED".equals(rows.status(id)));
        assertThat(broker.count(name)).isEqualTo(1);
        assertThat(meters.counter("gateway.outbox.wakeups", "relay", name).count()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void afterTheListeningConnectionIsKilledTheRelayReconnectsAndPublishesTheNextRow() {
        String name = unique("wakeup");
        OutboxWakeUp wakeUp = startRelay(name);
        await().atMost(Duration.ofSeconds(30)).until(() -> wakeUp.backendPid() > 0);
        String first = rows.insert("order-1", "OrderPlaced", "{}");
        await().atMost(Duration.ofSeconds(30)).until(() -> "PUBLISHED".equals(rows.status(first)));
        int killed = wakeUp.backendPid();

        assertThat(rows.jdbc().queryForObject("SELECT pg_terminate_backend(?)", Boolean.class, killed)).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                meters.counter("gateway.outbox.wakeup.reconnects", "relay", name).count() >= 1
                        && wakeUp.backendPid() > 0 && wakeUp.backendPid() != killed);
        String next = rows.insert("order-1", "OrderChanged", "{}");

        await().atMost(Duration.ofSeconds(30)).until(() -> "PUBLISHED".equals(rows.status(next)));
        assertThat(broker.count(name)).isEqualTo(2);
        assertThat(camel.getRouteController().getRouteStatus(OutboxRelayTemplate.ROUTE_PREFIX + name).isStarted())
                .isTrue();
    }

    /** A relay route as YAML would add it, polling once an hour, woken by notifications. */
    private OutboxWakeUp startRelay(String name) {
        String routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        try {
            TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE).routeId(routeId)
                    .parameter("relay", name).parameter("dataSource", "legacy")
                    .parameter("destination", "queue:" + name).parameter("pollInterval", "1h")
                    .parameter("wakeUp", "NOTIFY").add();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        routes.add(routeId);
        return factory.wakeUp(name).orElseThrow();
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

    /** Triggers of these names on tables of this test's schema (other schemas of the database may hold their own). */
    private int triggersHere(String names) {
        return rows.jdbc().queryForObject("SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()"
                + " AND t.tgname IN (" + names + ")", Integer.class);
    }
}
