package io.legacygateway.bench;

import io.legacygateway.GatewayApplication;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.inbox.InboxSettings;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Inbound messages per second with their effect on PostgreSQL, through the gateway's inbox (one transaction: inbox
 * row + effect; ack after commit), and in the same run through the naive idempotent consumer: Camel's
 * {@code JdbcMessageIdRepository} (eager, its key committed in a transaction of its own) and then the effect in
 * another. Same broker (standalone Artemis), same transacted JMS consumer with window 0, same sessions, same
 * envelope parsing, same effect statement. The naive path loses messages after a crash between its two commits; it
 * is measured only as the cost reference. Not a test: run {@code bench/inbox.sh [messages] [sessions] [batchSize]}
 * (the gateway inbox's {@code batchSize}; the template's default when left out).
 */
public final class InboxBenchmark {

    private static final int ACCOUNTS = 200;
    /** The gateway inbox's {@code batchSize}. */
    private static String batchSize;
    private static final String EFFECT = "UPDATE bench_account SET balance = balance + ?, events = events + 1 "
            + "WHERE account_id = ?";

    public static void main(String[] args) throws Exception {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        batchSize = args.length > 2 ? args[2] : InboxSettings.Parameter.BATCH_SIZE.defaultValue();
        String schema = TestDatabase.uniqueName(InboxBenchmark.class);
        String url = TestDatabase.POSTGRES.create(schema);
        Path work = Files.createTempDirectory("gw-bench-inbox-");
        StandaloneArtemis artemis = StandaloneArtemis.create(work.resolve("broker"));
        artemis.start();
        try {
            measure(messages, sessions, url, schema, artemis);
        } finally {
            artemis.kill();
            TestDatabase.POSTGRES.drop(schema);
            org.springframework.util.FileSystemUtils.deleteRecursively(work);
        }
    }

    private static void measure(int messages, int sessions, String url, String schema, StandaloneArtemis artemis)
            throws Exception {
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "postgres", ""));
        jdbc.execute("CREATE TABLE bench_account (account_id VARCHAR(64) PRIMARY KEY, balance NUMERIC(18,2) NOT NULL,"
                + " events BIGINT NOT NULL)");
        jdbc.execute("CREATE TABLE camel_messageprocessed (processorName VARCHAR(255) NOT NULL, messageId VARCHAR(100)"
                + " NOT NULL, createdAt TIMESTAMP, PRIMARY KEY (processorName, messageId))");
        for (int i = 0; i < ACCOUNTS; i++) {
            jdbc.update("INSERT INTO bench_account VALUES (?, 0, 0)", "acct-" + i);
        }
        System.out.printf("Inbox benchmark: %,d messages, %d JMS sessions, gateway batchSize %s, %d aggregates, "
                + "PostgreSQL schema %s, Artemis %s%n", messages, sessions, batchSize, ACCOUNTS, schema, artemis.url());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(GatewayApplication.class)
                .web(WebApplicationType.NONE).profiles("bench").run(
                        "--gateway.datasources.bench.url=" + url,
                        "--gateway.datasources.bench.username=postgres",
                        "--gateway.datasources.bench.initialize-schema=true",
                        "--spring.artemis.mode=native", "--spring.artemis.embedded.enabled=false",
                        "--spring.artemis.broker-url=" + artemis.url(),
                        "--camel.main.routes-include-pattern=classpath:no-routes/*.yaml",
                        "--logging.level.root=WARN")) {
            CamelContext camel = app.getBean(CamelContext.class);
            DataSource ds = app.getBean(GatewayDataSources.class).get("bench", "bench");
            // the inbox's tables are created with the first consumer; each run empties them before its consumer starts
            app.getBean(GatewayDataSources.class).initializeSchema("bench", GatewaySchema.INBOX, "the benchmark");
            camel.getRegistry().bind("benchConsumerCf", app.getBean(InboxConsumerFactory.class).connectionFactory());
            ActiveMQConnectionFactory producer = new ActiveMQConnectionFactory(artemis.url(), "gateway", "gateway");

            // warm-up: JIT, pools, broker journal; not reported
            run("warm-up inbox", q -> inbox(camel, q, sessions, "warm-inbox"), camel, producer, "bench.warm.inbox",
                    2_000, jdbc);
            run("warm-up naive", q -> naive(camel, ds, q, sessions, "warm-naive"), camel, producer,
                    "bench.warm.naive", 2_000, jdbc);
            double ceiling = jmsCeiling(app.getBean(InboxConsumerFactory.class).connectionFactory(), producer,
                    "bench.jms", messages, sessions);
            double inbox = run("gateway inbox", q -> inbox(camel, q, sessions, "bench-inbox"), camel, producer,
                    "bench.inbox", messages, jdbc);
            double naive = run("naive JdbcMessageIdRepository", q -> naive(camel, ds, q, sessions, "bench-naive"),
                    camel, producer, "bench.naive", messages, jdbc);
            System.out.println();
            System.out.printf("%-52s %12s%n", "path (" + sessions + " sessions, PostgreSQL, effect = 1 UPDATE)",
                    "messages/s");
            System.out.printf("%-52s %,12.0f%n", "ceiling: JMS transacted receive + commit, no database", ceiling);
            System.out.printf("%-52s %,12.0f%n", "gateway inbox: inbox row + effect, 1 transaction", inbox);
            System.out.printf("%-52s %,12.0f%n", "naive: JdbcMessageIdRepository key, then effect", naive);
            System.out.printf("inbox / naive = %.2f%n", inbox / naive);
            producer.close();
        }
    }

    /** Starts a consumer route on a queue; returns its route id. */
    interface Consumer {
        String start(String queue) throws Exception;
    }

    /** Fills the queue, starts the consumer, and times it until every message's effect is in the database. */
    private static double run(String what, Consumer consumer, CamelContext camel, ActiveMQConnectionFactory producer,
                              String queue, int messages, JdbcTemplate jdbc) throws Exception {
        jdbc.update("UPDATE bench_account SET balance = 0, events = 0");
        jdbc.update("DELETE FROM inbox");
        jdbc.update("DELETE FROM camel_messageprocessed");
        jdbc.execute("VACUUM ANALYZE");
        prefill(producer, queue, messages);
        long start = System.nanoTime();
        String route = consumer.start(queue);
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (jdbc.queryForObject("SELECT SUM(events) FROM bench_account", Long.class) < messages) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": not drained within 10 minutes");
            }
            Thread.sleep(10); // polling interval of a benchmark's stopwatch, not a test assertion
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        camel.getRouteController().stopRoute(route);
        camel.removeRoute(route);
        System.out.printf("  %-32s %,d in %.2f s%n", what, messages, seconds);
        return messages / seconds;
    }

    /** The broker half alone: the same sessions, window and transactions, parsing each envelope, no database. */
    private static double jmsCeiling(jakarta.jms.ConnectionFactory cf, ActiveMQConnectionFactory producer,
                                     String queue, int messages, int sessions) throws Exception {
        prefill(producer, queue, messages);
        EnvelopeCodec codec = new EnvelopeCodec();
        java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(sessions);
        long start = System.nanoTime();
        try (Connection c = cf.createConnection()) {
            c.start();
            List<java.util.concurrent.Future<?>> workers = new java.util.ArrayList<>();
            for (int t = 0; t < sessions; t++) {
                workers.add(pool.submit(() -> {
                    try (Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                         jakarta.jms.MessageConsumer consumer = s.createConsumer(s.createQueue(queue))) {
                        while (received.get() < messages) {
                            TextMessage m = (TextMessage) consumer.receive(200);
                            if (m != null) {
                                codec.read(m.getText());
                                s.commit();
                                received.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (var w : workers) {
                w.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("  %-32s %,d in %.2f s%n", "JMS receive + commit only", messages, seconds);
        return messages / seconds;
    }

    private static String inbox(CamelContext camel, String queue, int sessions, String name) {
        String routeId = InboxConsumerTemplate.ROUTE_PREFIX + name;
        TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE).routeId(routeId)
                .parameter("consumer", name)
                .parameter("dataSource", "bench")
                .parameter("queue", queue)
                .parameter("accept", "AccountCredited:1")
                .parameter("effectSql", "UPDATE bench_account SET balance = balance + :data.amount, "
                        + "events = events + 1 WHERE account_id = :subject")
                .parameter("concurrentConsumers", String.valueOf(sessions))
                .parameter("batchSize", batchSize)
                .add();
        return routeId;
    }

    private static String naive(CamelContext camel, DataSource ds, String queue, int sessions, String name)
            throws Exception {
        EnvelopeCodec codec = new EnvelopeCodec();
        JdbcTemplate effect = new JdbcTemplate(ds);
        JdbcMessageIdRepository repository = new JdbcMessageIdRepository(ds, name);
        repository.setCreateTableIfNotExists(false);
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("jms:queue:" + queue + "?connectionFactory=#benchConsumerCf&transacted=true"
                        + "&lazyCreateTransactionManager=false&cacheLevelName=CACHE_CONSUMER&concurrentConsumers="
                        + sessions + "&maxConcurrentConsumers=" + sessions + "&mapJmsMessage=false")
                        .routeId(name)
                        .process(x -> parse(x, codec))
                        // eager (the default): the key is committed in its own transaction before the effect runs
                        .idempotentConsumer(header("eventId"), repository)
                        .process(x -> {
                            EventEnvelope e = x.getProperty("envelope", EventEnvelope.class);
                            effect.update(EFFECT, e.data().get("amount").decimalValue(), e.subject());
                        });
            }
        });
        return name;
    }

    private static void parse(Exchange x, EnvelopeCodec codec) throws Exception {
        TextMessage m = (TextMessage) x.getIn(JmsMessage.class).getJmsMessage();
        EventEnvelope e = codec.read(m.getText());
        x.setProperty("envelope", e);
        x.getIn().setHeader("eventId", e.id());
    }

    private static void prefill(ActiveMQConnectionFactory cf, String queue, int messages) throws Exception {
        EnvelopeCodec codec = new EnvelopeCodec();
        try (Connection c = cf.createConnection(); Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (int i = 0; i < messages; i++) {
                String account = "acct-" + (i % ACCOUNTS);
                var data = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
                data.put("accountId", account);
                data.put("amount", new BigDecimal((i % 500) + ".25"));
                data.put("reference", "ref-" + i);
                EventEnvelope e = new EventEnvelope("1.0", UUID.randomUUID().toString(), "urn:bench", "AccountCredited",
                        account, Instant.now(), EventEnvelope.JSON, 1, "Account", null, null, null, data);
                TextMessage m = s.createTextMessage(codec.write(e));
                m.setStringProperty("_AMQ_DUPL_ID", e.id());
                m.setStringProperty("JMSXGroupID", e.groupId());
                m.setStringProperty("ce_id", e.id());
                m.setStringProperty("ce_type", e.type());
                p.send(m);
                if ((i + 1) % 500 == 0 || i == messages - 1) {
                    s.commit();
                }
            }
        }
    }
}
