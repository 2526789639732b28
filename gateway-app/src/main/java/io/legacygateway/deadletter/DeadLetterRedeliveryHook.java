package io.legacygateway.deadletter;

/**
 * Test hook into one dead letter's move (Spring beans of this type are picked up): called inside the move's
 * transacted JMS session after the dead letter was received from its queue and its copy sent to the original queue,
 * before the commit. Throwing rolls the move back, as a crash there would: the dead letter stays on its queue and the
 * copy is discarded.
 */
public interface DeadLetterRedeliveryHook {

    void afterSendBeforeCommit(DeadLetter deadLetter);
}
