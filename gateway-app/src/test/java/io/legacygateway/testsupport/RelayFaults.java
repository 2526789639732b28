package io.legacygateway.testsupport;

import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.relay.RelayCycleHook;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the window between the broker's confirmation and the mark deterministic: a relay can be made to crash there
 * once (the cycle rolls back as if the process had died), or to pause there until released. Also records every batch
 * that reached that point, so a test can see a republish.
 */
public class RelayFaults implements RelayCycleHook {

    /** Thrown where a crash would happen. */
    public static final class SimulatedCrash extends RuntimeException {
        public SimulatedCrash(String relay) {
            super("simulated crash of relay '" + relay + "' after publish, before mark");
        }
    }

    private final Map<String, Boolean> crashOnce = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> paused = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> reached = new ConcurrentHashMap<>();
    private final Map<String, List<List<String>>> batches = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> branchCommits = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> commitPaused = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> commitReached = new ConcurrentHashMap<>();
    private final Map<String, Runnable> onCommitRelease = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> brokerCommitsBeforeAction = new ConcurrentHashMap<>();
    private final Map<String, Runnable> atBrokerCommit = new ConcurrentHashMap<>();

    /**
     * Runs {@code action} on the relay's thread once, just before the broker is asked to commit the relay's
     * {@code nth} batch from now (1: the next one), its events sent and its attempts on record.
     */
    public void atBrokerCommit(String relay, int nth, Runnable action) {
        brokerCommitsBeforeAction.put(relay, new AtomicInteger(nth));
        atBrokerCommit.put(relay, action);
    }

    public void crashOnceAfterPublish(String relay) {
        crashOnce.put(relay, true);
    }

    /** The relay's next batch waits after publish, before mark, until {@link #release}. */
    public void pauseAfterPublish(String relay) {
        reached.put(relay, new CountDownLatch(1));
        paused.put(relay, new CountDownLatch(1));
    }

    /** Waits until the paused relay holds a published, unmarked batch. */
    public void awaitPaused(String relay) throws InterruptedException {
        if (!reached.get(relay).await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("relay '" + relay + "' never reached the pause");
        }
    }

    public void release(String relay) {
        CountDownLatch latch = paused.remove(relay);
        if (latch != null) {
            latch.countDown();
        }
    }

    /** Event ids of each batch that the broker confirmed, per relay, including batches that then crashed. */
    public List<List<String>> publishedBatches(String relay) {
        return batches.getOrDefault(relay, List.of());
    }

    /** How many branches of the relay's XA cycles were about to commit in phase two. */
    public int branchCommits(String relay) {
        AtomicInteger n = branchCommits.get(relay);
        return n == null ? 0 : n.get();
    }

    /**
     * The relay's next XA cycle waits before its first branch commits in phase two (every branch prepared, the
     * transaction's record written) until {@link #releaseBranchCommit}, then runs {@code thenRun} and goes on
     * committing.
     */
    public void pauseBeforeBranchCommit(String relay, Runnable thenRun) {
        commitReached.put(relay, new CountDownLatch(1));
        onCommitRelease.put(relay, thenRun);
        commitPaused.put(relay, new CountDownLatch(1));
    }

    /** Waits until the paused relay's cycle holds its prepared branches. */
    public void awaitBranchCommitPaused(String relay) throws InterruptedException {
        if (!commitReached.get(relay).await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("relay '" + relay + "' never reached the commit pause");
        }
    }

    public void releaseBranchCommit(String relay) {
        CountDownLatch latch = commitPaused.get(relay);
        if (latch != null) {
            latch.countDown();
        }
    }

    @Override
    public void beforeBranchCommit(String relay) {
        branchCommits.computeIfAbsent(relay, r -> new AtomicInteger()).incrementAndGet();
        CountDownLatch latch = commitPaused.get(relay);
        if (latch != null) {
            commitReached.get(relay).countDown();
            try {
                latch.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            commitPaused.remove(relay); // the cycle's other branches commit without a pause
            onCommitRelease.remove(relay).run();
        }
    }

    @Override
    public void beforeBrokerCommit(String relay) {
        AtomicInteger countdown = brokerCommitsBeforeAction.get(relay);
        if (countdown != null && countdown.decrementAndGet() == 0) {
            brokerCommitsBeforeAction.remove(relay);
            atBrokerCommit.remove(relay).run();
        }
    }

    @Override
    public void afterPublishBeforeMark(String relay, List<OutboxRow> published) {
        batches.computeIfAbsent(relay, r -> new CopyOnWriteArrayList<>())
                .add(published.stream().map(OutboxRow::eventId).toList());
        CountDownLatch latch = paused.get(relay);
        if (latch != null) {
            reached.get(relay).countDown();
            try {
                latch.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (crashOnce.remove(relay) != null) {
            throw new SimulatedCrash(relay);
        }
    }
}
