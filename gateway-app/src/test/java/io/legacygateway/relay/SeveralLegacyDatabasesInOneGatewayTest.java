package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.testsupport.DatabaseServers;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.ConnectionFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.camel.CamelContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One gateway, three legacy databases: two PostgreSQL databases and one MariaDB database, each with its own relay
 * route from YAML ({@code several-databases/*.yaml}) in a different mark mode, all publishing at once. The read-only
 * relay of the second PostgreSQL database keeps its position in the first one.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SeveralLegacyDatabasesInOneGatewayTest {

    private static final String PG_ADMIN = "jdbc:postgresql://" + DatabaseServers.postgres().address() + "/postgres";

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) throws SQLException {
        postgresDatabase(registry, "sales");
        postgresDatabase(registry, "billing");
        LegacyDatabases.register(registry, "stock", TestDatabase.MARIADB, SeveralLegacyDatabasesInOneGatewayTest.class);
        registry.add("camel.main.routes-include-pattern", () -> "classpath:several-databases/*.yaml");
    }

    /** A PostgreSQL database of its own (not a schema of the test database), dropped when the JVM exits. */
    private static void postgresDatabase(DynamicPropertyRegistry registry, String name) throws SQLException {
        String database = "gw_several_" + name + "_" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection c = DriverManager.getConnection(PG_ADMIN, "postgres", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(PG_ADMIN, "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            } catch (SQLException ignored) {
                // best effort: a unique name harms nothing
            }
        }));
        String prefix = "gateway.datasources." + name + ".";
        registry.add(prefix + "url", () -> "jdbc:postgresql://" + DatabaseServers.postgres().address() + "/" + database);
        registry.add(prefix + "username", () -> "postgres");
        registry.add(prefix + "password", () -> "");
        registry.add(prefix + "initialize-schema", () -> "true");
        registry.add(prefix + "maximum-pool-size", () -> "4");
    }

    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    ConnectionFactory connectionFactory;
    @Autowired
    CamelContext camel;

    @Test
    void eachDatabaseHasItsOwnRelayAndAllPublish() throws Exception {
        assertThat(camel.getRoutes()).extracting(r -> r.getRouteId()).contains("outbox-relay-several-sales",
                "outbox-relay-several-billing", "outbox-relay-several-stock");
        Map<String, OutboxRows> outboxes = Map.of("sales", new OutboxRows(dataSources.get("sales", "test")),
                "billing", new OutboxRows(dataSources.get("billing", "test")),
                "stock", new OutboxRows(dataSources.get("stock", "test")));
        assertThat(List.of(dataSources.dialect("sales"), dataSources.dialect("billing"), dataSources.dialect("stock")))
                .extracting(Enum::name).containsExactly("POSTGRESQL", "POSTGRESQL", "MARIADB");
        for (int i = 0; i < 10; i++) {
            for (var e : outboxes.entrySet()) {
                e.getValue().insert(e.getKey() + "-" + (i % 3), "Changed", "{\"n\":" + i + "}");
            }
        }

        QueueProbe broker = new QueueProbe(connectionFactory);
        Awaitility.await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(broker.count("several.sales")).isEqualTo(10);
            assertThat(broker.count("several.billing")).isEqualTo(10);
            assertThat(broker.count("several.stock")).isEqualTo(10);
            // the mark commits after the broker's commit: awaited too
            assertThat(outboxes.get("sales").count("PUBLISHED")).as("STATUS: marked").isEqualTo(10);
            assertThat(outboxes.get("stock").jdbc().queryForObject("SELECT COUNT(*) FROM outbox", Integer.class))
                    .as("DELETE: gone").isZero();
        });
        assertThat(outboxes.get("billing").count("PENDING")).as("ZERO_WRITE: untouched").isEqualTo(10);
        assertThat(outboxes.get("sales").jdbc().queryForObject("SELECT source_table FROM gateway_outbox_position"
                + " WHERE relay = 'several-billing'", String.class)).isEqualTo("billing/outbox");
    }
}
