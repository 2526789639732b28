package io.legacygateway.relay;

import io.legacygateway.envelope.EnvelopeMessages;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a batch in one transacted JMS session: persistent messages, then {@code commit()}, which returns only after
 * the broker has stored the batch (Artemis with {@code journal-sync-transactional=true}, its default).
 *
 * <p>Each message carries the duplicate-detection id {@code _AMQ_DUPL_ID} of {@link DuplicateIds#of}: the event id
 * and a digest of the envelope, so that the broker drops a resend of the same event and takes a different event that
 * reuses an event id.
 *
 * <p>Artemis rejects the commit of a whole transaction that contains one duplicate id ("Duplicate message
 * detected"), which happens when a batch is resent after a crash between publish and mark, and it refuses a send it
 * will not take (an address that is full, or that the gateway's user may not send to). Marking nothing would resend
 * that batch forever; marking everything would lose its other rows. So when a send or the commit fails while the
 * connection stays up, the batch is sent again one message at a time, each in a transaction of its own whose commit
 * returns once the broker has stored it: a commit the broker rejects as a duplicate names a message it already holds
 * ({@linkplain PublishResult#duplicates() duplicates}, confirmed as well), the others are stored, and the broker
 * refuses exactly the messages it will not take, which are reported {@linkplain PublishResult#refused() refused} with
 * the broker's reason. After a refused event, the later events of its aggregate are not sent
 * ({@linkplain PublishResult#deferred() deferred}), so that they cannot overtake it.
 *
 * <p>Before the first send to an address on a connection, the broker is asked whether the queue exists or would be
 * created: a message to an address that does not exist, with auto-create off, would be dropped by the broker without
 * an error. Such events are refused instead.
 *
 * <p>An outage (the broker cannot be reached, the connection is lost or a call times out; see
 * {@link #connectionLost}) throws {@link PublishException}: the caller marks and charges nothing. When a commit failed
 * without the broker's answer ({@link BrokerFailures#commitOutcomeUnknown}: the connection lost during the commit, the
 * broker killed, a failover), the broker may have stored the batch: the exception says so
 * ({@link PublishException#outcomeUnknown()}), and so does the result of the resend on a new connection that follows
 * in the same call ({@link PublishResult#resentAfterUnknownOutcome()}), whose duplicates that commit explains.
 *
 * <p>Not thread-safe: one instance per relay. The connection is kept between batches and rebuilt after a failure.
 */
public final class ArtemisPublisher implements EventPublisher {

    private static final Logger log = LoggerFactory.getLogger(ArtemisPublisher.class);

    private final ConnectionFactory connectionFactory;
    private final String relay;
    private volatile Connection connection;
    private Session transacted;
    private MessageProducer transactedProducer;
    private final BrokerAddresses addresses = new BrokerAddresses();
    private final DuplicateIds.Digest duplicateIds = new DuplicateIds.Digest();
    /** Set by the connection's exception listener (another thread) when the broker connection failed. */
    private volatile boolean broken;
    /** A commit of the batch being published failed without an answer (see {@link PublishException#outcomeUnknown}). */
    private boolean outcomeUnknown;
    /** A {@code commit()} is under way: a failure now is a failed commit. */
    private boolean committing;

    public ArtemisPublisher(ConnectionFactory connectionFactory, String relay) {
        this.connectionFactory = connectionFactory;
        this.relay = relay;
    }

    @Override
    public PublishResult publish(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit) {
        if (events.isEmpty()) {
            return PublishResult.allConfirmed(List.of());
        }
        boolean reused = connection != null && !broken;
        outcomeUnknown = false;
        try {
            return send(events, keepAggregateOrder, beforeCommit);
        } catch (PublishException e) {
            if (!reused) {
                throw e;
            }
            // a kept connection may have died since the last batch (broker restart): one retry on a new one
            log.debug("Relay '{}': retrying on a new connection after {}", relay, e.getMessage());
            PublishResult again = send(events, keepAggregateOrder, beforeCommit);
            return e.outcomeUnknown() ? again.afterUnknownOutcome() : again;
        }
    }

    /** A commit failed: whether its outcome is unknown, for the rest of this publish. */
    private void commitFailed(Throwable failure) {
        if (!outcomeUnknown && (broken || BrokerFailures.commitOutcomeUnknown(failure))) {
            outcomeUnknown = true;
            log.warn("Relay '{}': the broker's commit failed without an answer, it may have stored the batch (recorded"
                    + " as OUTCOME_UNKNOWN; the broker drops the copies of the resend): {}", relay,
                    BrokerFailures.reason(failure));
        }
    }

    /** A failure of the caller's {@code beforeCommit}: not the broker's, thrown to the caller as it is. */
    private static final class BeforeCommitFailure extends RuntimeException {
        BeforeCommitFailure(RuntimeException cause) {
            super(cause);
        }
    }

    private static void beforeCommit(Runnable beforeCommit) {
        try {
            beforeCommit.run();
        } catch (RuntimeException e) {
            throw new BeforeCommitFailure(e);
        }
    }

    private PublishResult send(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit) {
        try {
            open();
            Map<OutboundEvent, String> unroutable = new IdentityHashMap<>();
            for (OutboundEvent e : events) {
                String reason = addresses.unroutable(transacted, e);
                if (reason != null) {
                    unroutable.put(e, reason);
                }
            }
            if (unroutable.isEmpty()) {
                try {
                    for (OutboundEvent e : events) {
                        send(transacted, transactedProducer, e);
                    }
                    beforeCommit(beforeCommit);
                    committing = true;
                    transacted.commit();
                    committing = false;
                    return PublishResult.allConfirmed(events);
                } catch (JMSException | RuntimeException failed) {
                    if (committing) {
                        committing = false;
                        commitFailed(failed);
                    }
                    rollbackQuietly();
                    if (failed instanceof BeforeCommitFailure || connectionLost(failed)) {
                        throw failed;
                    }
                    // typically "Duplicate message detected" (the batch was sent before and not marked), or a refusal
                    log.info("Relay '{}': the broker rejected a batch of {} ({}); sending one at a time: the broker"
                            + " names the events it already holds and refuses only those it does not take", relay,
                            events.size(), BrokerFailures.reason(failed));
                }
            }
            beforeCommit(beforeCommit);
            return oneByOne(events, unroutable, keepAggregateOrder);
        } catch (BeforeCommitFailure e) {
            rollbackQuietly();
            throw (RuntimeException) e.getCause();
        } catch (JMSException | RuntimeException e) {
            if (committing) {
                committing = false;
                commitFailed(e);
            }
            reset();
            throw new PublishException("broker did not confirm a batch of " + events.size() + ": " + e, e,
                    outcomeUnknown);
        }
    }

    private PublishResult oneByOne(List<OutboundEvent> events, Map<OutboundEvent, String> unroutable,
                                   boolean keepAggregateOrder) throws JMSException {
        // One transaction per message: its commit returns once the broker stored it, and a duplicate id fails that
        // commit alone with DUPLICATE_ID_REJECTED (a non-transacted send of a duplicate is dropped without a word).
        List<OutboundEvent> confirmed = new ArrayList<>();
        List<PublishResult.Refusal> refused = new ArrayList<>();
        List<OutboundEvent> deferred = new ArrayList<>();
        List<OutboundEvent> duplicates = new ArrayList<>();
        Set<String> stopped = new HashSet<>();
        for (OutboundEvent e : events) {
            String aggregate = e.row().aggregateId();
            if (keepAggregateOrder && aggregate != null && stopped.contains(aggregate)) {
                deferred.add(e);
                continue;
            }
            String reason = unroutable.get(e);
            if (reason == null) {
                try {
                    send(transacted, transactedProducer, e);
                    committing = true;
                    transacted.commit();
                    committing = false;
                    confirmed.add(e);
                    continue;
                } catch (JMSException | RuntimeException failed) {
                    if (committing) {
                        committing = false;
                        commitFailed(failed);
                    }
                    rollbackQuietly();
                    if (BrokerFailures.duplicate(failed)) {
                        confirmed.add(e);
                        duplicates.add(e);
                        continue;
                    }
                    if (connectionLost(failed) || !alive(transacted, e)) {
                        throw failed;
                    }
                    reason = BrokerFailures.reason(failed);
                }
            }
            refused.add(new PublishResult.Refusal(e, reason));
            if (aggregate != null) {
                stopped.add(aggregate);
            }
        }
        return new PublishResult(confirmed, refused, deferred, duplicates);
    }

    /**
     * Whether a failure means the broker is gone rather than that it refused one message: the connection is not (or
     * no longer) there, a call timed out, or its outcome is unknown.
     */
    boolean connectionLost(Throwable failure) {
        return broken || BrokerFailures.outage(failure);
    }

    /** After a failure that does not say "connection lost": is the broker still answering this session? */
    private boolean alive(Session session, OutboundEvent e) {
        if (broken) {
            return false;
        }
        try {
            ClientSession core = ((ActiveMQSession) session).getCoreSession();
            if (core.isClosed()) {
                return false;
            }
            core.addressQuery(SimpleString.of(e.address()));
            return true;
        } catch (ActiveMQException | RuntimeException failed) {
            return false;
        }
    }

    private void send(Session session, MessageProducer producer, OutboundEvent e) throws JMSException {
        TextMessage m = EnvelopeMessages.toMessage(session, e.envelope(), e.json(), duplicateIds.of(e), relay);
        producer.send(addresses.destination(session, e), m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, 0L);
    }

    private void open() throws JMSException {
        if (broken) {
            close();
        }
        if (connection == null) {
            broken = false;
            Connection c = connectionFactory.createConnection();
            connection = c;
            // only this connection's failure: an old one's listener, late, must not condemn its successor
            c.setExceptionListener(e -> {
                if (connection == c) {
                    broken = true;
                }
            });
            transacted = connection.createSession(true, Session.SESSION_TRANSACTED);
            transactedProducer = transacted.createProducer(null);
        }
    }

    private void reset() {
        rollbackQuietly();
        close();
    }

    private void rollbackQuietly() {
        if (transacted != null) {
            try {
                transacted.rollback();
            } catch (JMSException | RuntimeException ignored) {
                // nothing left to undo: the broker discards a transaction that did not commit
            }
        }
    }

    @Override
    public void close() {
        Connection c = connection;
        connection = null;
        transacted = null;
        transactedProducer = null;
        addresses.clear();
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                log.debug("Relay '{}': closing the broker connection failed: {}", relay, e.toString());
            }
        }
    }
}
