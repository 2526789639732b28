package io.legacygateway.relay;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.transactions.HookedBranch;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XASession;
import jakarta.transaction.Transaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.transaction.xa.XAException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a batch as the broker branch of the cycle's global transaction ({@code transactionMode: XA}): the XA
 * session's resource is enlisted, the events are sent, and nothing is committed here; Narayana prepares and commits
 * the branch with the database's, so the events reach their queues exactly when the rows' marks commit.
 *
 * <p>An event to an address that does not exist (and would not be created) is refused before it is sent, as in LOCAL
 * mode, and later events of its aggregate are deferred. Any other failure of a send throws {@link PublishException}:
 * the whole global transaction rolls back, as in an outage.
 *
 * <p>The broker reports a duplicate id (an event it already holds: an operator's retry of a published row, a reloaded
 * table, a switch from LOCAL after a crash between publish and mark) or a refusal only when the branch prepares, which
 * then fails and rolls the whole global transaction back; the same rows would be claimed first again, and fail again,
 * for ever. So after the broker's branch failed its prepare while its connection stayed up, the relay's next batch is
 * published as LOCAL publishes a batch the broker rejected ({@link ArtemisPublisher}): one event at a time, each in a
 * broker transaction of its own on a plain connection, outside the global transaction, so that the broker names the
 * events it holds (confirmed: it has them), stores the others and refuses exactly those it will not take. That batch
 * then has LOCAL's guarantee, not XA's: its events are committed on the broker before the database's branch commits
 * the marks, and a crash in between sends them again, the broker dropping the copies. The batch after it is published
 * in the global transaction again.
 *
 * <p>Not thread-safe: one instance per relay. The connection is kept between batches and rebuilt after a failure.
 */
final class XaArtemisPublisher implements EventPublisher {

    private static final Logger log = LoggerFactory.getLogger(XaArtemisPublisher.class);

    private final XAConnectionFactory connectionFactory;
    private final XaTransactions transactions;
    private final String relay;
    /** The relay's hooks before the branch prepares and commits ({@link RelayCycleHook#beforeBranchCommit}). */
    private final HookedBranch.Hooks hooks;
    private final BrokerAddresses addresses = new BrokerAddresses();
    private final DuplicateIds.Digest duplicateIds = new DuplicateIds.Digest();
    private XAConnection connection;
    private XASession session;
    private MessageProducer producer;
    private volatile boolean broken;
    /** The broker's branch failed its prepare while the connection stayed up: the next batch goes one at a time. */
    private volatile boolean prepareRefused;

    XaArtemisPublisher(XAConnectionFactory connectionFactory, XaTransactions transactions, String relay,
                       HookedBranch.Hooks hooks) {
        this.connectionFactory = connectionFactory;
        this.transactions = transactions;
        this.relay = relay;
        this.hooks = hooks;
    }

    @Override
    public PublishResult publish(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit,
                                 Traceparents traceparents) {
        if (events.isEmpty()) {
            beforeCommit.run();
            return PublishResult.allConfirmed(List.of());
        }
        if (prepareRefused) {
            prepareRefused = false;
            return oneAtATime(events, keepAggregateOrder, beforeCommit, traceparents);
        }
        Transaction tx = transactions.active();
        if (tx == null) {
            throw new IllegalStateException("relay '" + relay + "': an XA publish needs the cycle's global"
                    + " transaction");
        }
        List<OutboundEvent> sent = new ArrayList<>();
        List<PublishResult.Refusal> refused = new ArrayList<>();
        List<OutboundEvent> deferred = new ArrayList<>();
        try {
            open();
            if (!tx.enlistResource(new HookedBranch(session.getXAResource(), watched()))) {
                throw new IllegalStateException("the global transaction refused the broker branch");
            }
            Set<String> stopped = new HashSet<>();
            Session s = session.getSession();
            for (OutboundEvent e : events) {
                String aggregate = e.row().aggregateId();
                if (keepAggregateOrder && aggregate != null && stopped.contains(aggregate)) {
                    deferred.add(e);
                    continue;
                }
                String reason = addresses.unroutable(s, e);
                if (reason != null) {
                    refused.add(new PublishResult.Refusal(e, reason));
                    if (aggregate != null) {
                        stopped.add(aggregate);
                    }
                    continue;
                }
                TextMessage m = EnvelopeMessages.toMessage(s, e.envelope(), e.json(), duplicateIds.of(e), relay);
                String traceparent = traceparents.of(e);
                if (traceparent != null) {
                    m.setStringProperty(EnvelopeMessages.TRACEPARENT, traceparent);
                }
                producer.send(addresses.destination(s, e), m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, 0L);
                sent.add(e);
            }
        } catch (Exception e) {
            close();
            throw new PublishException("broker branch of a batch of " + events.size() + " failed: " + e, e);
        }
        beforeCommit.run();
        return new PublishResult(sent, refused, deferred);
    }

    /** The relay's hooks, and a watch on the branch's prepare. */
    private HookedBranch.Hooks watched() {
        return new HookedBranch.Hooks() {
            @Override
            public void beforePrepare() {
                hooks.beforePrepare();
            }

            @Override
            public void beforeCommit() {
                hooks.beforeCommit();
            }

            @Override
            public void prepareFailed(XAException e) {
                // Artemis's client reports a duplicate id at prepare as XAER_RMFAIL with the broker's exception as its
                // cause ("failover occurred during prepare"): tell it from an outage by that cause, not by the code
                if (BrokerFailures.duplicate(e) || !(broken || BrokerFailures.outage(e))) {
                    prepareRefused = true;
                    log.warn("Relay '{}': the broker refused to prepare its branch of a batch (XA error {}: {}), the"
                            + " global transaction rolls back; the next batch is sent one event at a time, outside"
                            + " the global transaction (as in LOCAL), so that the broker names an event it already"
                            + " holds (a duplicate id) or refuses", relay, e.errorCode,
                            e.getCause() == null ? e.getMessage() : BrokerFailures.reason(e.getCause()));
                }
            }
        };
    }

    /** As LOCAL publishes a batch the broker rejected: see the class comment. */
    private PublishResult oneAtATime(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit,
                                     Traceparents traceparents) {
        if (!(connectionFactory instanceof ConnectionFactory plain)) {
            throw new PublishException("relay '" + relay + "': the broker's XA connection factory makes no plain"
                    + " connections, the batch cannot be sent one event at a time", null);
        }
        try (ArtemisPublisher local = new ArtemisPublisher(plain, relay)) {
            return local.publish(events, keepAggregateOrder, beforeCommit, traceparents);
        }
    }

    private void open() throws JMSException {
        if (broken) {
            close();
        }
        if (connection == null) {
            broken = false;
            connection = connectionFactory.createXAConnection();
            connection.setExceptionListener(e -> broken = true);
            session = connection.createXASession();
            producer = session.getSession().createProducer(null);
        }
    }

    @Override
    public void close() {
        XAConnection c = connection;
        connection = null;
        session = null;
        producer = null;
        addresses.clear();
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                log.debug("Relay '{}': closing the broker's XA connection failed: {}", relay, e.toString());
            }
        }
    }
}
