package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.JMSException;
import jakarta.jms.TransactionRolledBackException;
import org.apache.activemq.artemis.api.core.ActiveMQConnectionTimedOutException;
import org.apache.activemq.artemis.api.core.ActiveMQDuplicateIdException;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQTransactionOutcomeUnknownException;
import org.apache.activemq.artemis.api.core.ActiveMQTransactionRolledBackException;
import org.apache.activemq.artemis.api.core.ActiveMQUnBlockedException;
import org.junit.jupiter.api.Test;

/**
 * Failure window: a relay's commit cut by a broker failover, as the Artemis JMS client reports it (a JMS
 * {@link TransactionRolledBackException} linking the client's own exception, the messages of 2.40). Rolled back on
 * failover before the commit was sent (AMQ219030, {@code TRANSACTION_ROLLED_BACK}): the broker stored nothing, the
 * batch is sent again whole on a new connection, and nothing explains duplicates with it. Outcome unknown (AMQ219031
 * {@code TRANSACTION_OUTCOME_UNKNOWN}, the call unblocked by the failure, or a commit longer than {@code callTimeout}):
 * the broker may have stored it, and the resend's duplicates are explained. The end-to-end proofs are
 * {@code RelayPublishesEveryRowOnceAcrossABrokerFailoverTest} and {@code BrokerKillLoopStressTest}, where both occur.
 */
class CommitCutByAFailoverTest {

    @Test
    void aCommitRolledBackOnFailoverStoredNothingAndIsSentAgainWhole() {
        JMSException rolledBack = jms(new ActiveMQTransactionRolledBackException(
                "AMQ219030: The transaction was rolled back on failover to a backup server"));
        assertThat(BrokerFailures.rolledBackOnFailover(rolledBack)).isTrue();
        assertThat(BrokerFailures.commitOutcomeUnknown(rolledBack)).as("its outcome is known: nothing stored").isFalse();
        assertThat(BrokerFailures.duplicate(rolledBack)).isFalse();
    }

    @Test
    void aCommitCutByTheFailoverOrLongerThanCallTimeoutHasAnUnknownOutcome() {
        for (ActiveMQException cut : new ActiveMQException[] {
                new ActiveMQTransactionOutcomeUnknownException(
                        "AMQ219031: The transaction was rolled back on failover however commit may have been successful"),
                new ActiveMQUnBlockedException("AMQ219016: Connection failure detected. Unblocking a blocking call"),
                new ActiveMQConnectionTimedOutException("AMQ219014: Timed out after waiting 5000 ms for response")}) {
            JMSException e = jms(cut);
            assertThat(BrokerFailures.commitOutcomeUnknown(e)).as(cut.getType().name()).isTrue();
            assertThat(BrokerFailures.outage(e)).as(cut.getType().name() + ": the batch is sent again").isTrue();
            assertThat(BrokerFailures.rolledBackOnFailover(e)).as(cut.getType().name()).isFalse();
        }
    }

    @Test
    void aDuplicateIsTheBrokersAnswerNotAFailover() {
        JMSException duplicate = jms(new ActiveMQDuplicateIdException("Duplicate message detected"));
        assertThat(BrokerFailures.duplicate(duplicate)).isTrue();
        assertThat(BrokerFailures.commitOutcomeUnknown(duplicate)).isFalse();
        assertThat(BrokerFailures.rolledBackOnFailover(duplicate)).isFalse();
    }

    private static JMSException jms(ActiveMQException cause) {
        TransactionRolledBackException e = new TransactionRolledBackException(cause.getMessage());
        e.setLinkedException(cause);
        e.initCause(cause);
        return e;
    }
}
