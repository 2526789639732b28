package io.legacygateway.relay;

import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.envelope.EnvelopeMessages;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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
 * <p>A refusal that is the broker's state rather than the event's ({@link BrokerFailures#brokerState}: an address full
 * with address-full policy {@code FAIL}, the gateway's user refused) is charged to no row when the broker took no event
 * of the batch: the batch is an outage ({@link BatchRefusedException}), and the relay backs off as a whole instead of
 * charging, and at {@code maxAttempts} parking, every waiting row. When the broker took other events of the batch, an
 * event to a full address is deferred (uncharged; the later events to that address are not tried again in the batch),
 * and one the broker's security refused is that event's refusal. ZERO_WRITE relays, whose position passes every row,
 * get a full address's events refused instead of deferred.
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

    /** Closes the connection of a publish that takes longer than its timeout (one daemon thread for every relay). */
    private static final ScheduledExecutorService WATCHDOG = watchdog();

    private final ConnectionFactory connectionFactory;
    private final String relay;
    private final Duration timeout;
    /** Set by the watchdog when the current publish took longer than {@link #timeout}. */
    private volatile boolean timedOut;
    /** Volatile: the watchdog closes it from its own thread. */
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
    /** The trace context of each event of the batch being published. */
    private Traceparents traceparents = Traceparents.NONE;

    public ArtemisPublisher(ConnectionFactory connectionFactory, String relay) {
        this(connectionFactory, relay, Duration.ofSeconds(30));
    }

    /**
     * One thread for every relay's publish timeouts. A publish that ends in time cancels its task, which then leaves
     * the queue at once: otherwise each cycle's cancelled task would stay queued for the whole timeout (30 s of
     * cycles, thousands of them on a busy relay).
     */
    private static ScheduledExecutorService watchdog() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "relay-publish-timeout");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /** @param timeout longest time one {@link #publish} may take ({@code publishTimeout}) */
    public ArtemisPublisher(ConnectionFactory connectionFactory, String relay, Duration timeout) {
        this.connectionFactory = connectionFactory;
        this.relay = relay;
        this.timeout = timeout;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Bounded by the publisher's timeout: a send the broker does not take (address-full policy {@code BLOCK}, a full
     * disk: the client waits for the broker's credits without end) is ended by closing the connection from another
     * thread, which the client answers by returning from the wait; the publish then throws {@link PublishException},
     * an outage. Nothing committed on the broker is undone by that: what it committed before stays, as after any lost
     * connection, and a resend is deduplicated.
     */
    @Override
    public PublishResult publish(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit,
                                 Traceparents traceparents) {
        if (events.isEmpty()) {
            return PublishResult.allConfirmed(List.of());
        }
        this.traceparents = traceparents;
        timedOut = false;
        outcomeUnknown = false;
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(this::timeOut, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            boolean reused = connection != null && !broken;
            try {
                return send(events, keepAggregateOrder, beforeCommit);
            } catch (BatchRefusedException e) {
                throw e; // the broker answered: its state, not a dead connection
            } catch (PublishException e) {
                if (!reused || timedOut) {
                    throw e;
                }
                // a kept connection may have died since the last batch (broker restart): one retry on a new one
                log.debug("Relay '{}': retrying on a new connection after {}", relay, e.getMessage());
                PublishResult again = send(events, keepAggregateOrder, beforeCommit);
                return e.outcomeUnknown() ? again.afterUnknownOutcome() : again;
            }
        } finally {
            watchdog.cancel(false);
        }
    }

    /** The watchdog's action: the publish took too long; closing the connection ends the client's wait. */
    private void timeOut() {
        timedOut = true;
        broken = true;
        Connection c = connection;
        if (c != null) {
            try {
                c.close(); // JMS allows close() from another thread; a blocked producer returns from its wait
            } catch (JMSException | RuntimeException e) {
                log.debug("Relay '{}': closing a blocked broker connection failed: {}", relay, e.toString());
            }
        }
    }

    /**
     * A commit failed: whether its outcome is unknown, for the rest of this publish. Not when the failover rolled the
     * transaction back before its commit was sent ({@link BrokerFailures#rolledBackOnFailover}), though the connection
     * is then marked broken (the client reports every failover to the exception listener): nothing was stored.
     */
    private void commitFailed(Throwable failure) {
        if (!outcomeUnknown && !BrokerFailures.rolledBackOnFailover(failure)
                && (broken || BrokerFailures.commitOutcomeUnknown(failure))) {
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
                    BrokerFailovers.committed(connectionFactory); // publishing again after a failover
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
            return oneByOne(events, unroutable, keepAggregateOrder, beforeCommit);
        } catch (BeforeCommitFailure e) {
            rollbackQuietly();
            throw (RuntimeException) e.getCause();
        } catch (BatchRefusedException e) {
            throw e; // the connection is fine: kept for the next attempt
        } catch (JMSException | RuntimeException e) {
            if (committing) {
                committing = false;
                commitFailed(e);
            }
            reset();
            if (timedOut) {
                throw new PublishException("broker did not take a batch of " + events.size() + " within publishTimeout ("
                        + timeout.toMillis() + " ms; an address full with address-full-policy BLOCK, or a full disk?):"
                        + " connection closed, " + e, e, outcomeUnknown);
            }
            throw new PublishException("broker did not confirm a batch of " + events.size() + ": " + e, e,
                    outcomeUnknown);
        }
    }

    private PublishResult oneByOne(List<OutboundEvent> events, Map<OutboundEvent, String> unroutable,
                                   boolean keepAggregateOrder, Runnable beforeCommit) throws JMSException {
        // One transaction per message: its commit returns once the broker stored it, and a duplicate id fails that
        // commit alone with DUPLICATE_ID_REJECTED (a non-transacted send of a duplicate is dropped without a word).
        List<OutboundEvent> confirmed = new ArrayList<>();
        List<PublishResult.Refusal> refused = new ArrayList<>();
        List<OutboundEvent> deferred = new ArrayList<>();
        List<OutboundEvent> duplicates = new ArrayList<>();
        Set<String> stopped = new HashSet<>();
        // addresses found full in this batch, with the broker's reason: their later events are not sent again
        Map<String, String> full = new HashMap<>();
        String brokerState = null; // the first refusal that is the broker's state, not the event's
        boolean ownRefusal = false;
        for (OutboundEvent e : events) {
            String aggregate = e.row().aggregateId();
            if (keepAggregateOrder && aggregate != null && stopped.contains(aggregate)) {
                deferred.add(e);
                continue;
            }
            String reason = unroutable.get(e);
            boolean state = false;
            if (reason == null && keepAggregateOrder && full.containsKey(e.address())) {
                reason = full.get(e.address());
                state = true;
            } else if (reason == null) {
                beforeCommit(beforeCommit); // each commit here is the broker's too (the relay's fence)
                try {
                    send(transacted, transactedProducer, e);
                    committing = true;
                    transacted.commit();
                    committing = false;
                    BrokerFailovers.committed(connectionFactory);
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
                    state = BrokerFailures.brokerState(failed);
                    if (BrokerFailures.addressFull(failed)) {
                        full.put(e.address(), reason);
                    }
                }
            }
            if (state && brokerState == null) {
                brokerState = reason;
            }
            ownRefusal |= !state;
            if (state && keepAggregateOrder && full.containsKey(e.address())) {
                deferred.add(e); // a full address is the broker's state: the event waits, uncharged
            } else {
                refused.add(new PublishResult.Refusal(e, reason));
            }
            if (aggregate != null) {
                stopped.add(aggregate);
            }
        }
        if (confirmed.isEmpty() && brokerState != null && !ownRefusal) {
            // the same refusal for every event the broker was asked to take: an outage of the broker, not the rows'
            throw new BatchRefusedException("the broker refused every event of a batch of " + events.size() + ": "
                    + brokerState);
        }
        if (!full.isEmpty()) {
            log.warn("Relay '{}': address(es) {} full: their events wait, uncharged, while the rest of the batch goes"
                    + " on ({})", relay, full.keySet(), full.values().iterator().next());
        }
        return new PublishResult(confirmed, refused, deferred, duplicates);
    }

    /**
     * The broker refused every event of a batch for a reason that is its own state, not the events' (an address full
     * with address-full policy {@code FAIL}, the gateway's user refused): an outage, nothing charged. The connection
     * is fine and kept.
     */
    static final class BatchRefusedException extends PublishException {
        BatchRefusedException(String message) {
            super(message, null);
        }
    }

    /**
     * Whether a failure means the broker is gone rather than that it refused one message: the connection is not (or
     * no longer) there, a call timed out, or its outcome is unknown; or a failover rolled the batch back, which is
     * sent again whole on a new connection, not one at a time.
     */
    boolean connectionLost(Throwable failure) {
        return broken || BrokerFailures.outage(failure) || BrokerFailures.rolledBackOnFailover(failure);
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
        String traceparent = traceparents.of(e);
        if (traceparent != null) {
            m.setStringProperty(EnvelopeMessages.TRACEPARENT, traceparent);
        }
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
