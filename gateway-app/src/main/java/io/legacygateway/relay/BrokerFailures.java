package io.legacygateway.relay;

import io.legacygateway.adapters.Failures;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import java.io.IOException;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;

/**
 * What a failure of a send or a commit says about the broker: that it already holds the message, that it is gone, or
 * else why it refused the message. Walks the causes and the JMS linked exceptions.
 */
final class BrokerFailures {

    private BrokerFailures() {
    }

    /** Whether the broker rolled a transaction back because it already holds a message with its duplicate id. */
    static boolean duplicate(Throwable failure) {
        for (Throwable c = failure; c != null; c = next(c)) {
            if (c instanceof ActiveMQException a && a.getType() == ActiveMQExceptionType.DUPLICATE_ID_REJECTED) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the failure means the broker is gone rather than that it refused one message: the connection is not (or
     * no longer) there, a call timed out, or its outcome is unknown. Decided by the Artemis client's exception type
     * where the failure carries one: the JMS class says less (a header too big for the client, AMQ219022, is an
     * {@code ActiveMQIllegalStateException} that JMS turns into the same {@link IllegalStateException} as a closed
     * session, and it is that message's refusal, not an outage). A JMS {@link IllegalStateException} without an
     * Artemis exception behind it is the JMS layer's own "closed" check.
     */
    static boolean outage(Throwable failure) {
        boolean fromClient = artemis(failure) != null;
        for (Throwable c = failure; c != null; c = next(c)) {
            if (c instanceof ActiveMQException a) {
                switch (a.getType()) {
                    case NOT_CONNECTED, CONNECTION_TIMEDOUT, DISCONNECTED, UNBLOCKED, IO_ERROR, OBJECT_CLOSED,
                         REMOTE_DISCONNECT, SESSION_CREATION_REJECTED, TRANSACTION_OUTCOME_UNKNOWN, SHUTDOWN_ERROR,
                         TIMEOUT_EXCEPTION, INCOMPATIBLE_CLIENT_SERVER_VERSIONS -> {
                        return true;
                    }
                    default -> {
                        // a refusal of this message (security, address full, header too big, ...), or one below
                    }
                }
            }
            if (c instanceof IllegalStateException && !fromClient || c instanceof IOException) {
                return true; // JMS's own check of a closed session or connection, or the transport's I/O
            }
        }
        return false;
    }

    /**
     * Whether a refusal is the broker's state rather than the message's: the address is full (address-full policy
     * {@code FAIL}: Artemis refuses while the address holds {@code max-size-bytes}, whatever the message's size), or
     * the gateway's user may not send there. Such a refusal of every event of a batch is an outage.
     */
    static boolean brokerState(Throwable failure) {
        ActiveMQException a = artemis(failure);
        return a != null && (a.getType() == ActiveMQExceptionType.ADDRESS_FULL
                || a.getType() == ActiveMQExceptionType.SECURITY_EXCEPTION);
    }

    /** Whether the broker refused a message because its address is full (address-full policy {@code FAIL}). */
    static boolean addressFull(Throwable failure) {
        ActiveMQException a = artemis(failure);
        return a != null && a.getType() == ActiveMQExceptionType.ADDRESS_FULL;
    }

    /** The broker client's exception in the failure's causes, {@code null} when there is none. */
    static ActiveMQException artemis(Throwable failure) {
        for (Throwable c = failure; c != null; c = next(c)) {
            if (c instanceof ActiveMQException a) {
                return a;
            }
        }
        return null;
    }

    /**
     * Whether a failure of a {@code commit()} leaves its outcome unknown: the broker may have carried it out. So it is
     * when the commit's answer was lost: Artemis unblocks the waiting call when the connection fails
     * ({@code UNBLOCKED}) and reports {@code TRANSACTION_OUTCOME_UNKNOWN} when the session failed over during the
     * commit, or the call timed out; and whenever the connection is gone ({@link #outage}), as the request may have
     * reached the broker before. Not a duplicate-id rejection or another refusal: those are the broker's answer, and a
     * transaction rolled back on failover before its commit ({@code TRANSACTION_ROLLED_BACK}) stored nothing.
     */
    static boolean commitOutcomeUnknown(Throwable failure) {
        for (Throwable c = failure; c != null; c = next(c)) {
            if (c instanceof ActiveMQException a) {
                switch (a.getType()) {
                    case TRANSACTION_OUTCOME_UNKNOWN, UNBLOCKED, CONNECTION_TIMEDOUT -> {
                        return true;
                    }
                    default -> {
                        // an answer, or something outage() knows
                    }
                }
            }
        }
        return !duplicate(failure) && outage(failure);
    }

    /**
     * Whether the client rolled the transaction back because its session failed over before the commit was sent
     * ({@code TRANSACTION_ROLLED_BACK}, AMQ219030): the broker stored nothing of it, and the session works on the new
     * broker. A commit sent before the failure and cut by it is {@code TRANSACTION_OUTCOME_UNKNOWN} instead.
     */
    static boolean rolledBackOnFailover(Throwable failure) {
        ActiveMQException a = artemis(failure);
        return a != null && a.getType() == ActiveMQExceptionType.TRANSACTION_ROLLED_BACK;
    }

    /** The broker's reason in one line, without the message's headers that Artemis appends to it. */
    static String reason(Throwable failure) {
        String m = String.valueOf(failure.getMessage());
        int cut = m.indexOf(" Message information");
        return Failures.firstLine(cut > 0 ? m.substring(0, cut) : m);
    }

    private static Throwable next(Throwable t) {
        Throwable cause = t.getCause();
        if (cause == null && t instanceof JMSException j) {
            cause = j.getLinkedException();
        }
        return cause == t ? null : cause;
    }
}
