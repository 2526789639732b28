package io.legacygateway.deadletter;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Opens the failure window of a dead letter's move, per event id: between sending its copy to the original queue and
 * committing the transaction.
 */
final class RedeliveryFaults implements DeadLetterRedeliveryHook {

    /** Thrown where a crash would happen. */
    static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(String where) {
            super("simulated crash " + where);
        }
    }

    private final Map<String, Boolean> failOnce = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch[]> pauseOnce = new ConcurrentHashMap<>();

    /** The next move of this event fails after its copy was sent, before the commit. */
    void failAfterSendBeforeCommitOnce(String eventId) {
        failOnce.put(eventId, true);
    }

    /** The next move of this event counts {@code reached} down after sending and waits for {@code release}. */
    void pauseAfterSendBeforeCommitOnce(String eventId, CountDownLatch reached, CountDownLatch release) {
        pauseOnce.put(eventId, new CountDownLatch[] {reached, release});
    }

    @Override
    public void afterSendBeforeCommit(DeadLetter deadLetter) {
        String id = deadLetter.eventId();
        if (id == null) {
            return;
        }
        CountDownLatch[] pause = pauseOnce.remove(id);
        if (pause != null) {
            pause[0].countDown();
            try {
                pause[1].await(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (failOnce.remove(id) != null) {
            throw new SimulatedCrash("after sending the copy of " + id + ", before the commit");
        }
    }
}
