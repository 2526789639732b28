package io.legacygateway.bench;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Latency at a steady rate (issue 10 item 4), through the gateway's real routes (timers, polling, consumers):
 * <ul>
 *   <li>relay: writers commit single outbox rows at {@code rate} per second, as an application would; a consumer
 *       listening on the relay's queue takes the time from each row's commit (returned to the writer) to its message's
 *       arrival;</li>
 *   <li>inbox: producers send single persistent messages at {@code rate} per second (each send returns once the broker
 *       stored it); the effect records the database's clock when it runs in the inbox transaction, so the figure is
 *       the time from the send's return to the effect, without the inbox transaction's own commit.</li>
 * </ul>
 * Both clocks are this machine's wall clock (the JVM's and the database's).
 */
final class Latency {

    /**
     * Writer threads per 500 rows/s, at least 4: each writes one row per transaction and waits for its commit, which
     * on a loaded 2-core machine takes about 1 ms; 4 threads wrote at most about 3,300 rows/s.
     */
    private static final int ROWS_PER_WRITER = 500;
    private static final int MIN_WRITERS = 4;
    /** Persistent sends wait for the broker's journal: more threads keep the inbox's senders at the rate. */
    private static final int SENDERS = 8;
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final Duration DRAIN = Duration.ofMinutes(2);

    private Latency() {
    }

    /** p50, p99 and max in milliseconds of the latencies (nanoseconds or microseconds, as {@code unitsPerMs}). */
    static String percentiles(long[] values, int count, double unitsPerMs) {
        long[] v = Arrays.copyOf(values, count);
        Arrays.sort(v);
        if (count == 0) {
            return "no events";
        }
        return String.format("p50 %.1f ms, p99 %.1f ms, max %.1f ms (%,d events)", v[(int) (count * 0.50)]
                / unitsPerMs, v[Math.min(count - 1, (int) (count * 0.99))] / unitsPerMs, v[count - 1] / unitsPerMs,
                count);
    }

    /**
     * Relay: commit of an outbox row → its message on the queue; then the relay's cycles per second while the table
     * is idle (each is one claim statement in a transaction of its own).
     *
     * @param settle seconds written at the rate before the measured {@code seconds}, whose figures are reported apart
     *               (a new route's first seconds run code the JIT has not compiled for it yet)
     * @param name   the relay's name (unique in the run)
     * @param extra  route parameters of this line, after {@code --relay-param}'s
     * @param analyze whether the outbox's statistics are taken after the warm-up rows (else it is never analysed)
     */
    static String relay(BenchDatabase db, BenchedGateway gateway, ConnectionFactory cf, String queue, int batch,
                        int rate, int settle, int seconds, String name, Map<String, String> extra, boolean analyze)
            throws Exception {
        Map<String, Long> committed = new ConcurrentHashMap<>();
        int first = rate * settle;
        int total = first + rate * seconds;
        long[] latencies = new long[total];
        AtomicInteger received = new AtomicInteger();
        try (jakarta.jms.Connection c = cf.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageConsumer consumer = s.createConsumer(s.createQueue(queue))) {
            consumer.setMessageListener(m -> {
                long now = System.nanoTime();
                try {
                    Long at = committed.remove(m.getStringProperty("ce_id"));
                    if (at != null) {
                        int i = received.getAndIncrement();
                        if (i < total) {
                            latencies[i] = now - at;
                        }
                    }
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            String route = gateway.startRelay(name, queue, batch, extra);
            try {
                // the route's first cycles (connections, JIT) are not part of the steady state
                db.prefillOutbox(0, 20, analyze);
                awaitZero(db);
                long cyclesBefore = gateway.cycles(name);
                int writers = Math.max(MIN_WRITERS, (rate + ROWS_PER_WRITER - 1) / ROWS_PER_WRITER);
                long writeStart = System.nanoTime();
                double achieved = paced(rate, total, (connection, i) -> {
                    String id = UUID.randomUUID().toString();
                    PreparedStatement p = connection.prepareStatement("INSERT INTO outbox (id, aggregate_type,"
                            + " aggregate_id, event_type, event_version, payload, occurred_at) VALUES (?, 'Order', ?,"
                            + " 'OrderChanged', 1, ?, ?)");
                    p.setString(1, id);
                    p.setString(2, "order-" + (i % BenchDatabase.AGGREGATES));
                    p.setString(3, Envelopes.payload(i));
                    p.setTimestamp(4, Timestamp.from(Instant.now()));
                    // the map entry must exist before the relay can see the row: put it just before the commit and
                    // overwrite it with the commit's return
                    committed.put(id, System.nanoTime());
                    p.executeUpdate();
                    p.close();
                    connection.commit();
                    committed.put(id, System.nanoTime());
                }, db, writers);
                double busy = (gateway.cycles(name) - cyclesBefore) / ((System.nanoTime() - writeStart) / 1e9);
                awaitCount(received, total);
                int got = Math.min(received.get(), total);
                String figures = percentiles(Arrays.copyOfRange(latencies, Math.min(first, got), got),
                        Math.max(0, got - first), 1e6);
                if (first > 0) {
                    figures += "; its first " + settle + " s, reported apart: "
                            + percentiles(latencies, Math.min(first, got), 1e6);
                }
                long cycles = gateway.cycles(name);
                Thread.sleep(IDLE.toMillis()); // the idle cost is the cycles counted over this pause
                double idle = (gateway.cycles(name) - cycles) / (double) IDLE.toSeconds();
                return String.format("relay at %,d/s for %d s after %d s (written at %,.0f/s by %d threads), commit →"
                        + " on the queue: %s; cycles while writing: %.0f/s; idle: %.1f claims/s", rate, seconds, settle,
                        achieved, writers, figures, busy, idle);
            } finally {
                gateway.stopRoute(route);
            }
        }
    }

    /** Inbox: a message stored by the broker → its effect running in the inbox transaction. */
    static String inbox(BenchDatabase db, BenchedGateway gateway, ConnectionFactory cf, String queue, int rate,
                        int seconds) throws Exception {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bench_applied (message_id VARCHAR(64) PRIMARY KEY, applied_at "
                    + (db == BenchDatabase.POSTGRES ? "TIMESTAMPTZ" : "DATETIME(6)") + " NOT NULL)");
            c.commit();
        }
        String effect = "INSERT INTO bench_applied (message_id, applied_at) VALUES (:id, "
                + (db == BenchDatabase.POSTGRES ? "clock_timestamp()" : "SYSDATE(6)") + ")";
        Map<String, Instant> sent = new ConcurrentHashMap<>();
        int total = rate * seconds;
        String route = gateway.startInbox("latency-" + db.id, queue, 4, effect);
        try (jakarta.jms.Connection jms = cf.createConnection()) {
            // the consumers' first deliveries (sessions, JIT) are not part of the steady state
            int warmUp = 20;
            Envelopes.fillQueue(cf, queue, warmUp);
            awaitApplied(db, warmUp);
            // one session and producer per sender thread, as an application keeps them
            Map<Thread, MessageProducer> producers = new ConcurrentHashMap<>();
            Map<Thread, Session> sessions = new ConcurrentHashMap<>();
            double achieved = paced(rate, total, (connection, i) -> {
                Session s = sessions.computeIfAbsent(Thread.currentThread(), t -> {
                    try {
                        return jms.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
                MessageProducer p = producers.computeIfAbsent(Thread.currentThread(), t -> {
                    try {
                        MessageProducer created = s.createProducer(s.createQueue(queue));
                        created.setDeliveryMode(DeliveryMode.PERSISTENT);
                        return created;
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
                String id = UUID.randomUUID().toString();
                p.send(Envelopes.message(s, id, "AccountCredited", "order-" + (i % BenchDatabase.AGGREGATES),
                        Instant.now(), 1, "Account", Envelopes.payload(i), "bench"));
                sent.put(id, Instant.now());
            }, null, SENDERS);
            for (Session s : sessions.values()) {
                s.close();
            }
            awaitApplied(db, warmUp + total);
            long[] micros = new long[total];
            int n = 0;
            try (Connection c = db.connect(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT message_id, applied_at FROM bench_applied")) {
                while (r.next() && n < total) {
                    Instant at = sent.get(r.getString(1));
                    if (at != null) {
                        micros[n++] = Math.max(0, Duration.between(at, r.getTimestamp(2).toInstant()).toNanos()
                                / 1000);
                    }
                }
            }
            return String.format("inbox at %,d/s for %d s (sent at %,.0f/s), stored by the broker → effect: %s",
                    rate, seconds, achieved, percentiles(micros, n, 1e3));
        } finally {
            gateway.stopRoute(route);
        }
    }

    interface Write {
        void write(Connection connection, long i) throws Exception;
    }

    /**
     * Runs {@code total} writes spread over {@code threads} threads, write {@code i} not before {@code i / rate}
     * seconds after the start (a writer that falls behind writes at once); returns the rate achieved.
     */
    private static double paced(int rate, int total, Write write, BenchDatabase db, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                writers.add(pool.submit(() -> {
                    try (Connection c = db == null ? null : db.connect()) {
                        for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                            long due = start + (long) (i * 1e9 / rate);
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                LockSupport.parkNanos(wait);
                            }
                            write.write(c, i);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
        return total / ((System.nanoTime() - start) / 1e9);
    }

    private static void awaitApplied(BenchDatabase db, long expected) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (db.count("SELECT COUNT(*) FROM bench_applied") < expected && System.nanoTime() < deadline) {
            Thread.sleep(50); // waiting for the stragglers; the figures come from the recorded times
        }
    }

    private static void awaitZero(BenchDatabase db) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (db.pending() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50); // the warm-up rows published
        }
    }

    private static void awaitCount(AtomicInteger received, int total) throws InterruptedException {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (received.get() < total && System.nanoTime() < deadline) {
            Thread.sleep(50); // waiting for the stragglers; the figures come from the recorded times
        }
    }
}
