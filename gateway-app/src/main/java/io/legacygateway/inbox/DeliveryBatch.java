package io.legacygateway.inbox;

import jakarta.jms.Message;
import java.util.ArrayList;
import java.util.List;

/**
 * The deliveries of one listener session's batch not handled yet, in the order received, and how much of them the
 * next inbox transaction takes: all of them, or fewer while the message whose failure rolled a transaction back is
 * isolated ({@link #isolate}). Kept across the in-process retries of an outage; used by one listener thread.
 */
final class DeliveryBatch {

    /** A received message that became an envelope, with its delivery count. */
    record Delivery(Message message, InboundMessage inbound, int delivery) {
    }

    private final List<Delivery> pending = new ArrayList<>();
    private final int received;
    /** How many of {@code pending} the next transaction takes; 0: all. */
    private int limit;
    /** Transactions run each effect alone, not as a JDBC batch, until the message that failed one is found. */
    private boolean oneByOne;

    /** Connections lost in a row by this batch's transactions while a new connection to the database worked. */
    private int lossesWhileAnswering;

    /** @param received the messages received in this batch, valid or not */
    DeliveryBatch(int received) {
        this.received = received;
    }

    void add(Delivery d) {
        pending.add(d);
    }

    /** The transaction of {@code chunk} (from {@link #next}) is tried again as it was: the next one takes the same. */
    void again(List<Delivery> chunk) {
        limit = chunk.size();
    }

    /**
     * A transaction of the batch lost its connection and a new connection to the database then worked.
     *
     * @return how many times in a row, this one included
     */
    int lostConnectionWhileAnswering() {
        return ++lossesWhileAnswering;
    }

    /** A transaction of the batch ended without losing its connection, or the database did not answer either. */
    void connectionKept() {
        lossesWhileAnswering = 0;
    }

    /** The messages received in this batch, dead-lettered ones included. */
    int received() {
        return received;
    }

    boolean done() {
        return pending.isEmpty();
    }

    /** Whether the next transaction runs each effect alone. */
    boolean oneByOne() {
        return oneByOne;
    }

    /** The deliveries the next transaction takes, first of the batch: a view, cleared once they are handled. */
    List<Delivery> next() {
        int size = limit > 0 ? limit : pending.size();
        limit = 0;
        return pending.subList(0, size);
    }

    /**
     * The transaction of {@code chunk} (from {@link #next}) failed with {@code e} and rolled back, the database being
     * reachable. As if the chunk's messages had been applied one by one: a failure of a JDBC batch of effects, the
     * same chunk again with each effect alone; a failure of no particular message (the multi-row insert, the commit),
     * the chunk halved until it is one message's; a failure of a later message that may be retried, the messages
     * before it first, so that it heads the next transaction and its failure is its own. Otherwise the failure is the
     * message's: it leaves the batch, and the others go back to JDBC batches.
     *
     * @return the delivery whose failure it is, removed from the batch; {@code null} when the batch goes on smaller
     */
    Delivery isolate(List<Delivery> chunk, RuntimeException e) {
        int at = e instanceof InboxGuard.BatchFailure f ? f.index() : -1;
        RuntimeException failure = e instanceof InboxGuard.BatchFailure f ? f.failure() : e;
        if (e instanceof InboxGuard.BatchFailure f && f.statementBatch()) {
            // which message's statement failed is not known: the same chunk again, each effect alone
            limit = chunk.size();
            oneByOne = true;
            return null;
        }
        if (at < 0 && chunk.size() > 1) {
            limit = chunk.size() / 2;
            return null;
        }
        if (at > 0 && !(failure instanceof DeadLetterException)) {
            limit = at;
            return null;
        }
        oneByOne = false; // the failing message is found: the rest goes back to JDBC batches
        return chunk.remove(Math.max(at, 0));
    }
}
