package io.legacygateway.testsupport;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.inbox.InboxDeliveryHook;
import io.legacygateway.inbox.InboxOutcome;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Opens the failure windows of an inbox delivery deterministically, per event id: a crash after the database commit
 * and before the acknowledgement, a failure before the database commit, a barrier that holds concurrent deliveries of
 * one event until all of them are inside their database transactions. Records what each delivery did.
 */
public class InboxFaults implements InboxDeliveryHook {

    /** Thrown where a crash would happen. */
    public static final class SimulatedCrash extends RuntimeException {
        public SimulatedCrash(String where) {
            super("simulated crash " + where);
        }
    }

    private final Map<String, Boolean> crashAfterCommit = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch[]> pauseAfterCommit = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch[]> pauseBeforeAck = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failBeforeCommit = new ConcurrentHashMap<>();
    private final Map<String, Consumer<EventEnvelope>> beforeCommitProbes = new ConcurrentHashMap<>();
    private final Map<String, CyclicBarrier> barriers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final Map<String, List<InboxOutcome>> outcomes = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> branchCommits = new ConcurrentHashMap<>();

    /** How many branches of this consumer's global transactions committed in phase two (XA; one phase: none). */
    public int branchCommits(String consumer) {
        AtomicInteger n = branchCommits.get(consumer);
        return n == null ? 0 : n.get();
    }

    @Override
    public void beforeBranchCommit(String consumer) {
        branchCommits.computeIfAbsent(consumer, c -> new AtomicInteger()).incrementAndGet();
    }

    /** The next delivery of this event commits its database transaction, then fails before the acknowledgement. */
    public void crashAfterCommitBeforeAckOnce(String eventId) {
        crashAfterCommit.put(eventId, true);
    }

    /**
     * The next delivery of this event, after its database commit, counts {@code reached} down and waits for
     * {@code release} before it returns (and its JMS session commits).
     */
    public void pauseAfterCommitBeforeAckOnce(String eventId, CountDownLatch reached, CountDownLatch release) {
        pauseAfterCommit.put(eventId, new CountDownLatch[] {reached, release});
    }

    /**
     * The next delivery of the message whose {@code ce_id} is {@code eventId}, once the route returned and just before
     * the listener's JMS session commits (the acknowledgement, and a dead letter's copy), counts {@code reached} down
     * and waits for {@code release}: a process halting there leaves the whole transaction uncommitted.
     */
    public void pauseBeforeAcknowledgeOnce(String eventId, CountDownLatch reached, CountDownLatch release) {
        pauseBeforeAck.put(eventId, new CountDownLatch[] {reached, release});
    }

    /** The next delivery of this event fails after its effect, before the database commit. */
    public void failBeforeDatabaseCommitOnce(String eventId) {
        failBeforeCommit.put(eventId, true);
    }

    /** Runs inside every later delivery's database transaction of this event, just before its commit. */
    public void probeBeforeDatabaseCommit(String eventId, Consumer<EventEnvelope> probe) {
        beforeCommitProbes.put(eventId, probe);
    }

    /** The first {@code parties} deliveries of this event wait for each other before inserting their inbox row. */
    public void holdUntilConcurrent(String eventId, int parties) {
        barriers.put(eventId, new CyclicBarrier(parties));
    }

    /** Database transactions started for this event (deliveries, and in-process retries that got a connection). */
    public int attempts(String eventId) {
        AtomicInteger n = attempts.get(eventId);
        return n == null ? 0 : n.get();
    }

    /** What each delivery of this event that committed its database transaction did, in order. */
    public List<InboxOutcome> outcomes(String eventId) {
        return outcomes.getOrDefault(eventId, List.of());
    }

    @Override
    public void beforeInboxInsert(String consumer, EventEnvelope envelope) {
        attempts.computeIfAbsent(envelope.id(), k -> new AtomicInteger()).incrementAndGet();
        CyclicBarrier barrier = barriers.get(envelope.id());
        if (barrier != null && !barrier.isBroken()) {
            try {
                barrier.await(30, TimeUnit.SECONDS);
                barriers.remove(envelope.id(), barrier);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("concurrent deliveries of " + envelope.id() + " never met", e);
            }
        }
    }

    @Override
    public void beforeDatabaseCommit(String consumer, EventEnvelope envelope) {
        if (failBeforeCommit.remove(envelope.id()) != null) {
            throw new SimulatedCrash("before the database commit of " + envelope.id());
        }
        Consumer<EventEnvelope> probe = beforeCommitProbes.get(envelope.id());
        if (probe != null) {
            probe.accept(envelope);
        }
    }

    @Override
    public void afterDatabaseCommitBeforeAck(String consumer, EventEnvelope envelope, InboxOutcome outcome) {
        outcomes.computeIfAbsent(envelope.id(), k -> new CopyOnWriteArrayList<>()).add(outcome);
        CountDownLatch[] pause = pauseAfterCommit.remove(envelope.id());
        if (pause != null) {
            pause[0].countDown();
            try {
                pause[1].await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (crashAfterCommit.remove(envelope.id()) != null) {
            throw new SimulatedCrash("after the database commit of " + envelope.id() + ", before the ack");
        }
    }

    @Override
    public void beforeAcknowledge(String consumer, Message message) {
        String id;
        try {
            id = message.getStringProperty(EnvelopeMessages.ID);
        } catch (JMSException e) {
            return;
        }
        CountDownLatch[] pause = id == null ? null : pauseBeforeAck.remove(id);
        if (pause != null) {
            pause[0].countDown();
            try {
                pause[1].await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
