package io.legacygateway.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The references the gateway is measured against: what a short program written by hand does on the same database,
 * broker and messages, with long-lived connections, statements prepared once and reused, and one statement per batch
 * where a batch can be one statement. No framework, no pool, no per-row round trip.
 *
 * <p>Each method returns the events it handled; the caller times it and checks the outcome (rows marked, messages on
 * the queue, effects applied).
 */
final class HandWritten {

    /** How long a batch of the inbox waits for more messages after its first: the gateway's default batchWait. */
    private static final long BATCH_WAIT_NANOS = 10_000_000L;

    private HandWritten() {
    }

    /** Rows of one claim, as read. */
    private static final class Claimed {
        final long[] seq;
        final String[] id;
        final String[] aggregateType;
        final String[] aggregateId;
        final String[] type;
        final int[] version;
        final String[] payload;
        final Instant[] occurredAt;
        int n;

        Claimed(int batch) {
            seq = new long[batch];
            id = new String[batch];
            aggregateType = new String[batch];
            aggregateId = new String[batch];
            type = new String[batch];
            version = new int[batch];
            payload = new String[batch];
            occurredAt = new Instant[batch];
        }

        /** Runs the claim ({@code FOR UPDATE SKIP LOCKED}, at most {@code batch} rows in outbox order). */
        int claim(PreparedStatement claim, int batch) throws SQLException {
            claim.setInt(1, batch);
            n = 0;
            try (ResultSet r = claim.executeQuery()) {
                while (r.next()) {
                    seq[n] = r.getLong(1);
                    id[n] = r.getString(2);
                    aggregateType[n] = r.getString(3);
                    aggregateId[n] = r.getString(4);
                    type[n] = r.getString(5);
                    version[n] = r.getInt(6);
                    payload[n] = r.getString(7);
                    occurredAt[n] = r.getTimestamp(8).toInstant();
                    n++;
                }
            }
            return n;
        }
    }

    /**
     * Raw database ceiling: claim N + mark N in one statement + commit, on {@code claimers} threads (each its own
     * connection), no broker.
     */
    static long claimAndMark(BenchDatabase db, int batch, int claimers) throws Exception {
        AtomicLong total = new AtomicLong();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < claimers; t++) {
            String name = "bench-jdbc-" + t;
            tasks.add(() -> {
                try (Connection c = db.connect(); PreparedStatement claim = c.prepareStatement(BenchDatabase.CLAIM)) {
                    BenchDatabase.Marker marker = db.new Marker(c, name);
                    Claimed rows = new Claimed(batch);
                    while (rows.claim(claim, batch) > 0) {
                        marker.mark(rows.seq, rows.n);
                        c.commit();
                        total.addAndGet(rows.n);
                    }
                    c.commit();
                }
                return null;
            });
        }
        runAll(tasks);
        return total.get();
    }

    /**
     * Raw broker ceiling: {@code events} messages of the relay's shape, {@code batch} per commit, on {@code sessions}
     * threads (each its own connection and session), no database.
     */
    static long transactedSend(ConnectionFactory cf, String queue, int events, int batch, int sessions)
            throws Exception {
        Instant now = Instant.now();
        String[] payloads = new String[BenchDatabase.AGGREGATES];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = Envelopes.payload(i); // the pipeline reads its payloads; this one does not build them
        }
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < sessions; t++) {
            int share = events / sessions + (t < events % sessions ? 1 : 0);
            tasks.add(() -> {
                try (jakarta.jms.Connection c = cf.createConnection();
                     Session s = c.createSession(true, Session.SESSION_TRANSACTED)) {
                    MessageProducer p = s.createProducer(s.createQueue(queue));
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    for (int i = 0; i < share; i++) {
                        p.send(Envelopes.message(s, UUID.randomUUID().toString(), "OrderChanged",
                                "order-" + (i % BenchDatabase.AGGREGATES), now, 1, "Order",
                                payloads[i % BenchDatabase.AGGREGATES], "bench"));
                        if ((i + 1) % batch == 0) {
                            s.commit();
                        }
                    }
                    s.commit();
                }
                return null;
            });
        }
        runAll(tasks);
        return events;
    }

    /**
     * The relay pipeline by hand: claim N → send N in one JMS transaction → JMS commit → mark N in one statement →
     * DB commit, on {@code claimers} threads, each with its own database connection, broker connection and session.
     */
    static long pipeline(BenchDatabase db, ConnectionFactory cf, String queue, int batch, int claimers)
            throws Exception {
        AtomicLong total = new AtomicLong();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < claimers; t++) {
            String name = "bench-pipeline-" + t;
            tasks.add(() -> {
                try (Connection c = db.connect(); PreparedStatement claim = c.prepareStatement(BenchDatabase.CLAIM);
                     jakarta.jms.Connection jms = cf.createConnection();
                     Session s = jms.createSession(true, Session.SESSION_TRANSACTED)) {
                    MessageProducer p = s.createProducer(s.createQueue(queue));
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    BenchDatabase.Marker marker = db.new Marker(c, name);
                    Claimed rows = new Claimed(batch);
                    while (rows.claim(claim, batch) > 0) {
                        for (int i = 0; i < rows.n; i++) {
                            p.send(Envelopes.message(s, rows.id[i], rows.type[i], rows.aggregateId[i],
                                    rows.occurredAt[i], rows.version[i], rows.aggregateType[i], rows.payload[i],
                                    name));
                        }
                        s.commit();
                        marker.mark(rows.seq, rows.n);
                        c.commit();
                        total.addAndGet(rows.n);
                    }
                    c.commit(); // nothing left to claim (the rest, if any, is locked by the other claimers)
                }
                return null;
            });
        }
        runAll(tasks);
        return total.get();
    }

    /**
     * The batched inbox by hand: up to {@code batch} messages received in one transacted session (the first waited
     * for, the rest for up to 10 ms from it, as the gateway's default {@code batchWait}), one database transaction with one multi-row insert-first into the
     * inbox and the effects (a JDBC batch), DB commit, JMS commit; {@code threads} sessions on one connection, each
     * with its own database connection. A batch in which any message was already in the inbox is rolled back and
     * applied one message at a time (never the case in the bench, which sends no duplicates).
     *
     * @return the moment (nanoTime) the last effect committed
     */
    static long batchedInbox(BenchDatabase db, ConnectionFactory cf, String queue, int messages, int threads,
                             int batch) throws Exception {
        return inbox(db, cf, queue, messages, threads, batch, "bench-batched");
    }

    /** The naive inbox by hand: one message per DB transaction (insert-first, effect) and per JMS commit. */
    static long naiveInbox(BenchDatabase db, ConnectionFactory cf, String queue, int messages, int threads)
            throws Exception {
        return inbox(db, cf, queue, messages, threads, 1, "bench-naive");
    }

    private static long inbox(BenchDatabase db, ConnectionFactory cf, String queue, int messages, int threads,
                              int batch, String consumer) throws Exception {
        AtomicLong applied = new AtomicLong();
        AtomicLong finishedAt = new AtomicLong();
        EnvelopeCodec codec = new EnvelopeCodec();
        List<Callable<Void>> tasks = new ArrayList<>();
        // one connection, started once every session has its consumer: the broker spreads the aggregates' groups
        // over all sessions instead of binding them to whichever consumer started first
        try (jakarta.jms.Connection jms = cf.createConnection()) {
            CountDownLatch ready = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    try (Connection c = db.connect(); PreparedStatement effect = c.prepareStatement(BenchDatabase.EFFECT);
                         Session s = jms.createSession(true, Session.SESSION_TRANSACTED);
                         MessageConsumer in = s.createConsumer(s.createQueue(queue))) {
                        BenchDatabase.InboxInsert insert = db.new InboxInsert(c);
                        String[] ids = new String[batch];
                        String[] accounts = new String[batch];
                        BigDecimal[] amounts = new BigDecimal[batch];
                        ready.countDown();
                        while (applied.get() < messages) {
                            TextMessage m = (TextMessage) in.receive(200);
                            // the gateway's batching: more messages for up to 10 ms from the first (batchWait)
                            long deadline = System.nanoTime() + BATCH_WAIT_NANOS;
                            int n = 0;
                            while (m != null) {
                                EventEnvelope e = codec.read(m.getText());
                                JsonNode amount = e.data().get("amount");
                                ids[n] = e.id();
                                accounts[n] = e.subject();
                                amounts[n] = amount.decimalValue();
                                n++;
                                long left = (deadline - System.nanoTime()) / 1_000_000L;
                                m = n == batch ? null
                                        : (TextMessage) (left >= 1 ? in.receive(left) : in.receiveNoWait());
                            }
                            if (n == 0) {
                                continue;
                            }
                            if (insert.insert(ids, n, consumer) == n) {
                                for (int i = 0; i < n; i++) {
                                    effect.setBigDecimal(1, amounts[i]);
                                    effect.setString(2, accounts[i]);
                                    effect.addBatch();
                                }
                                effect.executeBatch();
                            } else {
                                c.rollback();
                                for (int i = 0; i < n; i++) {
                                    if (insert.insert(new String[] {ids[i]}, 1, consumer) == 1) {
                                        effect.setBigDecimal(1, amounts[i]);
                                        effect.setString(2, accounts[i]);
                                        effect.executeUpdate();
                                    }
                                }
                            }
                            c.commit();
                            s.commit();
                            if (applied.addAndGet(n) >= messages) {
                                finishedAt.compareAndSet(0, System.nanoTime());
                            }
                        }
                    }
                    return null;
                });
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Void>> running = new ArrayList<>();
                for (Callable<Void> task : tasks) {
                    running.add(pool.submit(task));
                }
                ready.await();
                jms.start();
                for (Future<Void> f : running) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
        }
        return finishedAt.get();
    }

    private static void runAll(List<Callable<Void>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            for (Future<Void> f : pool.invokeAll(tasks)) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
