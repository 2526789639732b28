package io.legacygateway.bench;

import io.legacygateway.GatewayApplication;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.relay.OutboxRelayTemplate;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.transactions.TransactionMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The gateway itself, started in the bench JVM as a deployment would start it (Spring Boot application, datasource
 * {@code bench}, the standalone broker), without YAML routes: the bench creates relays through the application's
 * {@link OutboxRelayFactory} and drains them as their timer would, and adds inbox consumers from the application's
 * route template. Extra route parameters (for example a future {@code batchSize} of the inbox) come from the
 * command line, so a rewrite can be measured with its new settings without changing the bench. Relays in
 * {@code transactionMode: XA} keep Narayana's object store in the folder the bench gives (its work folder, deleted
 * with it); Narayana's settings are per JVM, so every gateway of one run gets the same folder and node id.
 */
final class BenchedGateway implements AutoCloseable {

    private static final Duration LIMIT = Duration.ofMinutes(15);
    private static final String NODE_ID = "gw-bench";

    private final ConfigurableApplicationContext app;
    private final BenchDatabase db;
    private final Map<String, String> relayParameters;
    private final Map<String, String> inboxParameters;
    private int routes;

    BenchedGateway(BenchDatabase db, StandaloneArtemis artemis, Path transactionLog,
                   Map<String, String> relayParameters, Map<String, String> inboxParameters) {
        this.db = db;
        this.relayParameters = relayParameters;
        this.inboxParameters = inboxParameters;
        this.app = new SpringApplicationBuilder(GatewayApplication.class).web(WebApplicationType.NONE)
                .profiles("bench").run(
                        "--gateway.datasources.bench.url=" + db.url(),
                        "--gateway.datasources.bench.username=" + db.database.username(),
                        "--spring.artemis.mode=native", "--spring.artemis.embedded.enabled=false",
                        "--spring.artemis.broker-url=" + artemis.url(),
                        "--camel.main.routes-include-pattern=classpath:no-routes/*.yaml",
                        "--gateway.transactions.log-dir=" + transactionLog,
                        "--gateway.transactions.node-id=" + NODE_ID,
                        // the bench's object store is under the temporary folder on purpose: it lives for one run
                        "--logging.level.io.legacygateway.transactions.XaTransactions=ERROR",
                        "--spring.main.banner-mode=off",
                        "--logging.level.root=WARN");
    }

    /** {@link #relay(String, String, int, int, boolean, TransactionMode)} in {@code transactionMode: LOCAL}. */
    long relay(String name, String queue, int batch, int claimers, boolean attemptLog) throws Exception {
        return relay(name, queue, batch, claimers, attemptLog, TransactionMode.LOCAL);
    }

    /**
     * Drains the outbox's PENDING rows with {@code claimers} relays of the same settings (each on its own thread,
     * looping {@link OutboxRelay#drain} until nothing is pending), then closes them.
     *
     * @return events published
     */
    long relay(String name, String queue, int batch, int claimers, boolean attemptLog, TransactionMode mode)
            throws Exception {
        OutboxRelayFactory factory = app.getBean(OutboxRelayFactory.class);
        List<OutboxRelay> relays = new ArrayList<>();
        for (int c = 1; c <= claimers; c++) {
            Map<String, Object> p = new HashMap<>(relayParameters);
            p.put("relay", name + "-" + c);
            p.put("attemptLog", String.valueOf(attemptLog));
            p.put("destination", "queue:" + queue);
            p.put("batchSize", String.valueOf(batch));
            p.put("transactionMode", mode.name());
            relays.add(factory.create(p));
        }
        AtomicLong total = new AtomicLong();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(claimers);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (OutboxRelay relay : relays) {
                tasks.add(() -> {
                    while (true) {
                        total.addAndGet(relay.drain(() -> false));
                        if (db.pending() == 0) {
                            return null;
                        }
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException(relay.name() + ": rows still pending after " + LIMIT);
                        }
                    }
                });
            }
            for (Future<Void> f : pool.invokeAll(tasks)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
            relays.forEach(OutboxRelay::close);
        }
        return total.get();
    }

    /**
     * Starts an inbox consumer on a filled queue and waits until every message's effect is in the database.
     *
     * @return the moment (nanoTime) all effects were seen committed
     */
    long inbox(String name, String queue, int sessions, long messages) throws Exception {
        String routeId = startInbox(name, queue, sessions, BenchDatabase.GATEWAY_EFFECT);
        long deadline = System.nanoTime() + LIMIT.toNanos();
        try {
            while (db.appliedEffects() < messages) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(name + ": effects not all applied after " + LIMIT);
                }
                Thread.sleep(20); // the stopwatch's resolution, not a wait for a test condition
            }
            return System.nanoTime();
        } finally {
            stopRoute(routeId);
        }
    }

    /** Adds (and so starts) an inbox consumer route from the application's template; returns its route id. */
    String startInbox(String name, String queue, int sessions, String effectSql) throws Exception {
        CamelContext camel = app.getBean(CamelContext.class);
        String routeId = InboxConsumerTemplate.ROUTE_PREFIX + name + "-" + (++routes);
        TemplatedRouteBuilder builder = TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE)
                .routeId(routeId)
                .parameter("consumer", name)
                .parameter("dataSource", "bench")
                .parameter("queue", queue)
                .parameter("accept", "AccountCredited:1")
                .parameter("effectSql", effectSql)
                .parameter("concurrentConsumers", String.valueOf(sessions));
        inboxParameters.forEach(builder::parameter);
        builder.add();
        return routeId;
    }

    /**
     * Adds (and so starts) a relay route from the application's {@code outbox-relay} template: its timer polls at
     * {@code pollInterval} (the template's default unless given with {@code --relay-param}); returns its route id.
     */
    String startRelay(String name, String queue, int batch, Map<String, String> extra) throws Exception {
        CamelContext camel = app.getBean(CamelContext.class);
        String routeId = OutboxRelayTemplate.ROUTE_PREFIX + name;
        TemplatedRouteBuilder builder = TemplatedRouteBuilder.builder(camel, OutboxRelayTemplate.TEMPLATE)
                .routeId(routeId)
                .parameter("relay", name)
                .parameter("dataSource", "bench")
                .parameter("destination", "queue:" + queue)
                .parameter("batchSize", String.valueOf(batch));
        relayParameters.forEach(builder::parameter);
        extra.forEach(builder::parameter);
        builder.add();
        return routeId;
    }

    /** Relay cycles run so far by the relay of that name (its {@code gateway.outbox.cycle} timer). */
    long cycles(String relay) {
        return app.getBean(io.micrometer.core.instrument.MeterRegistry.class)
                .timer("gateway.outbox.cycle", "relay", relay).count();
    }

    void stopRoute(String routeId) throws Exception {
        CamelContext camel = app.getBean(CamelContext.class);
        camel.getRouteController().stopRoute(routeId);
        camel.removeRoute(routeId);
    }

    @Override
    public void close() {
        app.close();
    }
}
