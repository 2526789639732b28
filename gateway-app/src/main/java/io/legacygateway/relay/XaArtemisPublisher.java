package io.legacygateway.relay;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.transactions.HookedBranch;
import io.legacygateway.transactions.XaTransactions;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a batch as the broker branch of the cycle's global transaction ({@code transactionMode: XA}): the XA
 * session's resource is enlisted, the events are sent, and nothing is committed here; Narayana prepares and commits
 * the branch with the database's, so the events reach their queues exactly when the rows' marks commit.
 *
 * <p>An event to an address that does not exist (and would not be created) is refused before it is sent, as in LOCAL
 * mode, and later events of its aggregate are deferred. Any other failure of a send throws {@link PublishException}:
 * the whole global transaction rolls back, as in an outage (no one-at-a-time resend in this mode: a duplicate id or a
 * refusal reported at prepare rolls the batch back as a whole).
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

    XaArtemisPublisher(XAConnectionFactory connectionFactory, XaTransactions transactions, String relay,
                       HookedBranch.Hooks hooks) {
        this.connectionFactory = connectionFactory;
        this.transactions = transactions;
        this.relay = relay;
        this.hooks = hooks;
    }

    @Override
    public PublishResult publish(List<OutboundEvent> events, boolean keepAggregateOrder, Runnable beforeCommit) {
        if (events.isEmpty()) {
            beforeCommit.run();
            return PublishResult.allConfirmed(List.of());
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
            if (!tx.enlistResource(new HookedBranch(session.getXAResource(), hooks))) {
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
