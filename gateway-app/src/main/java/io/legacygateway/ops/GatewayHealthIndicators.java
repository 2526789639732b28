package io.legacygateway.ops;

import io.legacygateway.config.GatewayDataSources;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The health checks of the readiness group ({@code /actuator/health/readiness}): every datasource under
 * {@code gateway.datasources} answers, and the broker accepts a connection. Liveness does not include them: an
 * unreachable database or broker makes the gateway not ready (no traffic, and the relays back off by themselves), not
 * dead (a restart would not help).
 */
public final class GatewayHealthIndicators {

    private GatewayHealthIndicators() {
    }

    /** {@code gatewayDatabases}: a pooled connection of every datasource is valid; DOWN names the failing ones. */
    public static class Databases extends AbstractHealthIndicator {
        private final GatewayDataSources dataSources;

        public Databases(GatewayDataSources dataSources) {
            super("Datasource health check failed");
            this.dataSources = dataSources;
        }

        @Override
        protected void doHealthCheck(Health.Builder builder) {
            Map<String, Object> details = new LinkedHashMap<>();
            boolean up = true;
            for (String name : dataSources.names()) {
                DataSource ds = dataSources.get(name, "gateway.datasources");
                try (var c = ds.getConnection()) { // a JDBC connection (Connection here is the JMS one)
                    if (c.isValid(2)) {
                        details.put(name, "UP");
                    } else {
                        up = false;
                        details.put(name, "DOWN: connection not valid");
                    }
                } catch (SQLException | RuntimeException e) {
                    up = false;
                    details.put(name, "DOWN: " + e.getMessage());
                }
            }
            (up ? builder.up() : builder.down()).withDetails(details);
        }
    }

    /** {@code broker}: a new connection to the broker can be opened and started. */
    public static class Broker extends AbstractHealthIndicator {
        private final ConnectionFactory connectionFactory;

        public Broker(ConnectionFactory connectionFactory) {
            super("Broker health check failed");
            this.connectionFactory = connectionFactory;
        }

        @Override
        protected void doHealthCheck(Health.Builder builder) {
            try (Connection c = connectionFactory.createConnection()) {
                c.start();
                builder.up().withDetail("provider", c.getMetaData().getJMSProviderName());
            } catch (Exception e) {
                // reported, not thrown: a thrown failure is logged with its stack trace at every probe and sample
                builder.down().withDetail("error", String.valueOf(e.getMessage())
                        + (e.getCause() == null ? "" : " <- " + e.getCause()));
            }
        }
    }
}
