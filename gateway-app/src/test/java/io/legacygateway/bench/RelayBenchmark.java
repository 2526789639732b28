package io.legacygateway.bench;

import io.legacygateway.GatewayApplication;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Drains a pre-filled outbox backlog from PostgreSQL into the standalone Artemis broker and prints events/s, next to
 * the two raw ceilings at the same batch size: plain JDBC claim+mark (no broker) and a plain JMS transacted send of
 * the same messages (no database). Not a test: run {@code bench/relay.sh [rows] [batchSize]}.
 */
public final class RelayBenchmark {

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Path work = Files.createTempDirectory("gw-bench-");
        StandaloneArtemis artemis = StandaloneArtemis.create(work.resolve("broker"));
        artemis.start();
        String schema = TestDatabase.uniqueName(RelayBenchmark.class);
        String url = TestDatabase.POSTGRES.create(schema) + "&reWriteBatchedInserts=true";
        DataSource ds = new DriverManagerDataSource(url, "postgres", "");
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "outbox.sql");
        SchemaScripts.apply(ds, Dialect.POSTGRESQL, "relay-state.sql"); // the attempt log
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        System.out.printf("Relay benchmark: %,d rows, batch %d, PostgreSQL schema %s, Artemis %s%n", rows, batch,
                schema, artemis.url());
        try {
            prefill(jdbc, rows);
            double jdbcCeiling = jdbcClaimAndMark(ds, batch, rows);
            jdbc.update("TRUNCATE outbox");
            double jmsCeiling = jmsTransactedSend(artemis, batch, rows);
            artemis.cli("queue", "purge", "--name", "bench.jms", "--silent");
            prefill(jdbc, rows);
            double gateway = gatewayRelay(url, artemis, batch, rows, true);
            jdbc.update("TRUNCATE outbox");
            artemis.cli("queue", "purge", "--name", "bench.gateway", "--silent");
            prefill(jdbc, rows);
            double withoutLog = gatewayRelay(url, artemis, batch, rows, false);
            double slower = Math.min(jdbcCeiling, jmsCeiling);
            System.out.println();
            System.out.printf("%-44s %12s%n", "path (batch " + batch + ")", "events/s");
            System.out.printf("%-44s %,12.0f%n", "ceiling: JDBC claim + mark, no broker", jdbcCeiling);
            System.out.printf("%-44s %,12.0f%n", "ceiling: JMS transacted send, no database", jmsCeiling);
            System.out.printf("%-44s %,12.0f%n", "gateway relay (claim, publish, mark)", gateway);
            System.out.printf("%-44s %,12.0f%n", "gateway relay, attemptLog: false", withoutLog);
            System.out.printf("gateway / slower ceiling = %.2f (target >= 0.50)%n", gateway / slower);
        } finally {
            artemis.kill();
            TestDatabase.POSTGRES.drop(schema);
            org.springframework.util.FileSystemUtils.deleteRecursively(work);
        }
    }

    private static void prefill(JdbcTemplate jdbc, int rows) {
        long start = System.nanoTime();
        List<Object[]> chunk = new ArrayList<>();
        Timestamp now = Timestamp.from(Instant.now());
        for (int i = 0; i < rows; i++) {
            chunk.add(new Object[] {UUID.randomUUID().toString(), "order-" + (i % 1000), payload(i), now});
            if (chunk.size() == 5000 || i == rows - 1) {
                jdbc.batchUpdate("INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, event_version, "
                        + "payload, occurred_at) VALUES (?, 'Order', ?, 'OrderChanged', 1, ?, ?)", chunk);
                chunk.clear();
            }
        }
        jdbc.execute("VACUUM ANALYZE outbox");
        System.out.printf("  prefilled %,d rows in %.1f s%n", rows, (System.nanoTime() - start) / 1e9);
    }

    private static String payload(int i) {
        return "{\"orderId\":\"order-" + (i % 1000) + "\",\"customerId\":\"customer-" + (i % 97)
                + "\",\"amount\":" + (i % 500) + ".25,\"currency\":\"EUR\",\"lines\":[{\"sku\":\"SKU-" + (i % 50)
                + "\",\"quantity\":" + (1 + i % 5) + "}]}";
    }

    /** The database half alone: the same claim and mark statements the relay uses, no broker. */
    private static double jdbcClaimAndMark(DataSource ds, int batch, int rows) {
        TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
        JdbcTemplate jdbc = new JdbcTemplate(ds);
        long start = System.nanoTime();
        int done = 0;
        while (done < rows) {
            Integer n = tx.execute(s -> {
                List<Long> keys = jdbc.queryForList("SELECT seq FROM outbox WHERE status = ? AND (next_retry_at IS NULL"
                        + " OR next_retry_at <= ?) ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED", Long.class, "PENDING",
                        Timestamp.from(Instant.now()), batch);
                Timestamp at = Timestamp.from(Instant.now());
                jdbc.batchUpdate("UPDATE outbox SET status = ?, published_at = ?, locked_by = ? WHERE seq = ?",
                        keys.stream().map(k -> new Object[] {"PUBLISHED", at, "bench", k}).toList());
                return keys.size();
            });
            if (n == null || n == 0) {
                break;
            }
            done += n;
        }
        return rate(done, start, "JDBC claim + mark");
    }

    /** The broker half alone: the same message sizes and properties, one transaction per batch. */
    private static double jmsTransactedSend(StandaloneArtemis artemis, int batch, int rows) throws Exception {
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory(artemis.url(), "gateway", "gateway");
        String body = "{\"specversion\":\"1.0\",\"id\":\"" + UUID.randomUUID() + "\",\"source\":\"urn:legacy-gateway\","
                + "\"type\":\"OrderChanged\",\"subject\":\"order-1\",\"time\":\"2026-11-29T10:15:30.123456Z\","
                + "\"datacontenttype\":\"application/json\",\"eventversion\":1,\"aggregatetype\":\"Order\",\"data\":"
                + payload(1) + "}";
        long start = System.nanoTime();
        try (Connection c = cf.createConnection(); Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
            MessageProducer p = s.createProducer(s.createQueue("bench.jms"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < rows; i++) {
                TextMessage m = s.createTextMessage(body);
                String id = UUID.randomUUID().toString();
                m.setStringProperty("_AMQ_DUPL_ID", id);
                m.setStringProperty("JMSXGroupID", "Order:order-" + (i % 1000));
                m.setStringProperty("ce_id", id);
                m.setStringProperty("ce_type", "OrderChanged");
                p.send(m);
                if ((i + 1) % batch == 0 || i == rows - 1) {
                    s.commit();
                }
            }
        }
        cf.close();
        return rate(rows, start, "JMS transacted send");
    }

    /** The real relay, built by the application from route parameters, draining as its timer would. */
    private static double gatewayRelay(String url, StandaloneArtemis artemis, int batch, int rows,
                                       boolean attemptLog) {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("bench").run(
                        "--gateway.datasources.bench.url=" + url,
                        "--gateway.datasources.bench.username=postgres",
                        "--spring.artemis.mode=native", "--spring.artemis.embedded.enabled=false",
                        "--spring.artemis.broker-url=" + artemis.url(),
                        "--camel.main.routes-include-pattern=classpath:no-routes/*.yaml",
                        "--logging.level.root=WARN")) {
            Map<String, Object> p = new HashMap<>();
            p.put("relay", attemptLog ? "bench" : "bench-nolog");
            p.put("attemptLog", String.valueOf(attemptLog));
            p.put("destination", "queue:bench.gateway");
            p.put("batchSize", String.valueOf(batch));
            OutboxRelay relay = app.getBean(OutboxRelayFactory.class).create(p);
            JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
            long start = System.nanoTime();
            int done = 0;
            while (done < rows) {
                int n = relay.drain(() -> false);
                if (n == 0 && jdbc.queryForObject("SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'",
                        Integer.class) == 0) {
                    break;
                }
                done += n;
            }
            return rate(done, start, attemptLog ? "gateway relay" : "gateway, no attempt log");
        }
    }

    private static double rate(int n, long startNanos, String what) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf("  %-24s %,d in %.2f s%n", what, n, seconds);
        return n / seconds;
    }
}
