package io.legacygateway.ops;

import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import java.sql.SQLException;
import java.time.Duration;
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
 *
 * <p>Both checks that open connections reuse their result for {@code gateway.metrics.health-cache} ({@link Cached}):
 * however many probes, scrapes and anonymous requests arrive, each datasource and the broker see at most one check per
 * that time.
 */
public final class GatewayHealthIndicators {

    private GatewayHealthIndicators() {
    }

    /**
     * A check whose result is reused for a time to live, counted from the end of the check that produced it. One check
     * at a time: callers arriving while it runs wait for it and take its result, so a flood of requests makes one
     * check, not one each. Guaranteed: a result is at most {@code timeToLive} old when it is handed out (0: never
     * reused). Not guaranteed: a change of the database or broker is seen before that time has passed.
     */
    public abstract static class Cached extends AbstractHealthIndicator {
        private final long timeToLiveNanos;
        private final Object lock = new Object();
        private Health last;
        private long takenAt;
        private long checks;

        protected Cached(String failureMessage, Duration timeToLive) {
            super(failureMessage);
            this.timeToLiveNanos = timeToLive.toNanos();
        }

        /** What the endpoint asks (without details for those who may not see them); the check is {@link #health()}. */
        @Override
        public Health getHealth(boolean includeDetails) {
            Health health;
            synchronized (lock) {
                if (last == null || System.nanoTime() - takenAt >= timeToLiveNanos) {
                    last = health();
                    takenAt = System.nanoTime();
                    checks++;
                }
                health = last;
            }
            return includeDetails ? health : Health.status(health.getStatus()).build();
        }

        /** How many checks ran (not answers given) since the start. */
        public long checks() {
            synchronized (lock) {
                return checks;
            }
        }
    }

    /** {@code gatewayDatabases}: a pooled connection of every datasource is valid; DOWN names the failing ones. */
    public static class Databases extends Cached {
        private final GatewayDataSources dataSources;

        public Databases(GatewayDataSources dataSources, Duration timeToLive) {
            super("Datasource health check failed", timeToLive);
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

    /**
     * {@code broker}: a new connection to the broker can be opened and started. Guaranteed with the factory the gateway
     * gives it ({@link BrokerConnections#checkingFactory}): a check ends within about
     * {@link #CHECK_BOUND} per server, DOWN when no broker answered, also when the broker URL waits for one without
     * limit or the broker dies while the check connects; the probes and the sampler, which wait for a running check,
     * are not held longer.
     */
    public static class Broker extends Cached {
        /** The longest a call of the check waits for the broker. */
        public static final Duration CHECK_BOUND = Duration.ofSeconds(3);
        private final ConnectionFactory connectionFactory;

        public Broker(ConnectionFactory connectionFactory, Duration timeToLive) {
            super("Broker health check failed", timeToLive);
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

    /**
     * {@code brokerFailover}: whether the relays' or inbox consumers' broker connections are failing over now
     * ({@link BrokerFailovers}): {@code failingOver: true} with, per role, since when, the connection and broker whose
     * failure started it and whether the connections are back (waiting for the first commit), until that role commits
     * again. Always UP: readiness gates only the gateway's operations API (it serves no other inbound traffic), which
     * an operator needs most while a failover runs, and taking the gateway out for a few seconds would neither
     * shorten the failover nor spare any request; the broker check ({@code broker}) is DOWN when no broker accepts a
     * connection. Read at every call (no cache: it reads memory only).
     */
    public static class BrokerFailover extends AbstractHealthIndicator {
        private final BrokerFailovers failovers;

        public BrokerFailover(BrokerFailovers failovers) {
            super("Broker failover health check failed");
            this.failovers = failovers;
        }

        @Override
        protected void doHealthCheck(Health.Builder builder) {
            Map<BrokerFailovers.Role, BrokerFailovers.Episode> running = failovers.failingOver();
            builder.up().withDetail("failingOver", !running.isEmpty());
            running.forEach((role, e) -> {
                Map<String, Object> detail = new LinkedHashMap<>();
                detail.put("since", e.since().toString());
                detail.put("connection", e.connection());
                detail.put("broker", e.broker());
                detail.put("reconnected", e.reconnected());
                builder.withDetail(role.name().toLowerCase(java.util.Locale.ROOT), detail);
            });
        }
    }

    /**
     * {@code xaTransactions}: the XA relays' global transactions; {@code started: false} while no relay runs XA (then
     * it reads nothing of Narayana). Details {@code inDoubt} (records in the object store: commit decided, a branch
     * not yet committed) and {@code heuristics} (heuristic outcomes since this start). Always UP: in-doubt work is
     * recovery's, and a heuristic outcome needs an operator, not fewer requests (readiness DOWN would take away the
     * REST API the operator inspects it with); the alert on {@code gateway_xa_transactions_total{outcome="heuristic"}}
     * calls them. DOWN only when the object store cannot be read.
     */
    public static class Xa extends AbstractHealthIndicator {
        private final XaTransactions xa;

        public Xa(XaTransactions xa) {
            super("XA transactions health check failed");
            this.xa = xa;
        }

        @Override
        protected void doHealthCheck(Health.Builder builder) {
            if (!xa.started()) {
                builder.up().withDetail("started", false);
                return;
            }
            try {
                builder.up().withDetail("started", true).withDetail("inDoubt", xa.inDoubt())
                        .withDetail("heuristics", xa.heuristics());
            } catch (RuntimeException e) {
                builder.down().withDetail("started", true).withDetail("error", String.valueOf(e.getMessage()));
            }
        }
    }
}
