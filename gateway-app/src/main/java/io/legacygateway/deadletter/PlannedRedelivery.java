package io.legacygateway.deadletter;

import org.apache.activemq.artemis.api.core.RoutingType;

/**
 * One selected dead letter and what happens to it. The planner ({@link RedeliveryPlanner}) decides the first outcome;
 * the mover ({@link DeadLetterMover}) replaces it with what really happened, and the report is read from both.
 */
final class PlannedRedelivery {

    /** Where a copy goes: the original queue, by its fully qualified name. */
    record Target(String address, String queue, RoutingType routingType) {
        String fqqn() {
            return address + "::" + queue;
        }
    }

    final DeadLetter letter;
    RedeliveryOutcome outcome;
    /** The plan says: delete the inbox row before moving (RELEASE_INBOX_AND_REDELIVER of an applied one). */
    final boolean release;
    /** {@code null} when the original queue is unknown or gone. */
    final Target target;
    String detail;
    /** The inbox row was really deleted. */
    boolean released;
    /** Older than the replay horizon and moved only because force is set. */
    boolean forced;

    PlannedRedelivery(DeadLetter letter, RedeliveryOutcome outcome, boolean release, Target target, String detail) {
        this.letter = letter;
        this.outcome = outcome;
        this.release = release;
        this.target = target;
        this.detail = detail;
    }

    /** Whether the mover takes it off its dead-letter queue (to move it, or to discard an applied one). */
    boolean toMove() {
        return outcome == RedeliveryOutcome.MOVED || outcome == RedeliveryOutcome.DISCARDED_APPLIED;
    }
}
