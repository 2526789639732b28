package io.legacygateway.inbox;

import io.legacygateway.broker.BrokerFailovers;
import io.legacygateway.transactions.HookedBranch;
import io.micrometer.core.instrument.Counter;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XASession;
import jakarta.transaction.RollbackException;
import jakarta.transaction.SystemException;
import jakarta.transaction.Transaction;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.camel.component.jms.DefaultJmsMessageListenerContainer;
import org.apache.camel.component.jms.JmsEndpoint;
import org.apache.camel.component.jms.MessageListenerContainerFactory;
import org.springframework.jms.listener.AbstractMessageListenerContainer;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The JMS listener containers of one inbox consumer route ({@code consumerType=Custom}): Camel's own container, which
 * camel-jms configures from the endpoint URI as usual, plus the three things the inbox needs from it.
 * <ul>
 *   <li>Every rollback of a listener session, whatever caused it (a transient failure, a stopping route, a failed
 *       dead-letter send, an error in Camel's error handler, a message rejected while stopping), and every failed
 *       acknowledging commit, is counted once in {@code gateway_inbox_rollbacks_total}: each one returns the session's
 *       messages (its batch) to the broker and uses one of their delivery attempts.</li>
 *   <li>{@link InboxDeliveryHook#beforeAcknowledge} runs just before the session commits (tests open that window),
 *       for each message of the batch.</li>
 *   <li>Each message received by the container starts a batch ({@link ListenerBatches}): the route receives the rest
 *       of it on the same session before it returns, and the one commit acknowledges all of them.</li>
 * </ul>
 * With {@code exposeListenerSession=true} the session the route gets is this container's session, so a dead-letter
 * copy sent by {@link FailureDecisions} commits in the same transaction as the acknowledgement.
 *
 * <p>{@code transactionMode: XA}: the container gets Narayana's manager instead of a locally transacted session, so
 * it begins a global transaction before each receive; its connection is an XA connection and its (cached) session an
 * XA session, whose branch it enlists in each of those transactions before receiving. The batch's receives, its
 * dead-letter copies and (through {@link InboxTransactions}) its database work are then branches of one transaction,
 * committed in two phases after the route returned: that commit is the acknowledgement. Rollbacks are counted when
 * such a transaction that received a message ends without committing.
 */
final class InboxListenerContainers implements MessageListenerContainerFactory {

    private final String consumer;
    private final Counter rollbacks;
    private final List<InboxDeliveryHook> hooks;
    private final ListenerBatches batches;
    /** The consumer's global transactions; {@code null} for LOCAL. */
    private final InboxTransactions.Xa xa;

    InboxListenerContainers(String consumer, Counter rollbacks, List<InboxDeliveryHook> hooks,
                            ListenerBatches batches, InboxTransactions.Xa xa) {
        this.consumer = consumer;
        this.rollbacks = rollbacks;
        this.hooks = List.copyOf(hooks);
        this.batches = batches;
        this.xa = xa;
    }

    /**
     * The wait before a listener container recovers after a failure of its session, and between its attempts to
     * connect again: {@value #RECOVERY_FIRST_MILLIS} ms, doubling up to {@value #RECOVERY_MAX_MILLIS} ms. A broker
     * failover fails the session's transaction (rolled back on failover, AMQ219030/AMQ219031) on a connection that
     * already works again: with Spring's fixed 5 s the inbox stopped consuming 5 s longer than the failover took (a
     * thread dump showed the invoker in {@code waitBeforeRecoveryAttempt}). A broker that is really gone is still
     * tried at most every {@value #RECOVERY_MAX_MILLIS} ms.
     */
    static final long RECOVERY_FIRST_MILLIS = 200;
    static final long RECOVERY_MAX_MILLIS = 5000;

    static BackOff recoveryBackOff() {
        ExponentialBackOff backOff = new ExponentialBackOff(RECOVERY_FIRST_MILLIS, 2.0);
        backOff.setMaxInterval(RECOVERY_MAX_MILLIS);
        return backOff;
    }

    @Override
    public AbstractMessageListenerContainer createMessageListenerContainer(JmsEndpoint endpoint) {
        return new Container(endpoint);
    }

    private final class Container extends DefaultJmsMessageListenerContainer {

        /** Whether this container runs, for the batches of its sessions ({@link ListenerBatches#stopping}). */
        private final BooleanSupplier running = this::isRunning;

        Container(JmsEndpoint endpoint) {
            super(endpoint);
        }

        /**
         * XA: Narayana's manager, no local JMS transaction (camel-jms configured one from the endpoint URI). And the
         * recovery's backoff ({@link InboxListenerContainers#recoveryBackOff}) instead of the fixed 5 s.
         */
        @Override
        public void initialize() {
            if (xa != null) {
                setSessionTransacted(false);
                setTransactionManager(xa.manager());
            }
            setBackOff(recoveryBackOff());
            super.initialize();
        }

        @Override
        protected Connection createConnection() throws JMSException {
            if (xa != null && obtainConnectionFactory() instanceof XAConnectionFactory factory) {
                return factory.createXAConnection();
            }
            return super.createConnection();
        }

        @Override
        protected Session createSession(Connection con) throws JMSException {
            if (xa != null && con instanceof XAConnection x) {
                return x.createXASession();
            }
            return super.createSession(con);
        }

        /** XA: the session's branch joins the global transaction the container has just begun, before it receives. */
        @Override
        protected boolean doReceiveAndExecute(Object invoker, Session session, MessageConsumer from,
                                              TransactionStatus status) throws JMSException {
            if (xa != null && status != null && session instanceof XASession x) {
                enlist(x);
            }
            return super.doReceiveAndExecute(invoker, session, from, status);
        }

        private void enlist(XASession session) throws JMSException {
            try {
                Transaction tx = xa.transactions().active();
                if (tx == null || !tx.enlistResource(new HookedBranch(session.getXAResource(), xa.hooks()))) {
                    throw new JMSException("inbox-consumer '" + consumer + "': the global transaction refused the"
                            + " broker's branch");
                }
            } catch (RollbackException | SystemException e) {
                JMSException j = new JMSException("inbox-consumer '" + consumer + "': cannot enlist the broker's"
                        + " branch: " + e);
                j.initCause(e);
                throw j;
            }
        }

        /**
         * A stopping container does not wait before recovering: Spring interrupts a receive still running a receive
         * timeout after the stop, and an invoker interrupted in its first receive waited the recovery interval (5 s)
         * before it ended, and the route's stop with it. ({@code true}: no recovery loop goes on once stopped.)
         */
        @Override
        protected boolean applyBackOffTime(BackOffExecution execution) {
            return !isRunning() || super.applyBackOffTime(execution);
        }

        /** That interrupt is the stop itself, not a failure to report. */
        @Override
        protected void handleListenerSetupFailure(Throwable ex, boolean alreadyRecovered) {
            super.handleListenerSetupFailure(ex, alreadyRecovered || !isRunning());
        }

        @Override
        protected Message receiveMessage(MessageConsumer from) throws JMSException {
            Message first = super.receiveMessage(from);
            if (first != null) {
                batches.started(from, first, running);
                if (xa != null) {
                    countRollback();
                }
            }
            return first;
        }

        /** XA: the global transaction that received this batch is counted when it ends without committing. */
        private void countRollback() {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status != STATUS_COMMITTED) {
                        rollbacks.increment();
                    }
                }
            });
        }

        @Override
        protected void commitIfNecessary(Session session, Message message) throws JMSException {
            try {
                if (message != null) {
                    List<Message> batch = batches.current();
                    for (Message m : batch.isEmpty() ? List.of(message) : batch) {
                        hooks.forEach(h -> h.beforeAcknowledge(consumer, m));
                    }
                }
                super.commitIfNecessary(session, message);
                if (message != null) {
                    BrokerFailovers.committed(obtainConnectionFactory()); // consuming again after a failover
                }
            } catch (JMSException | RuntimeException e) {
                // a commit that fails leaves the transaction to the broker, which rolls it back (XA: counted when the
                // global transaction ends)
                if (message != null && xa == null) {
                    rollbacks.increment();
                }
                throw e;
            } finally {
                batches.ended();
            }
        }

        @Override
        protected void rollbackIfNecessary(Session session) throws JMSException {
            count(session);
            batches.ended();
            super.rollbackIfNecessary(session);
        }

        @Override
        protected void rollbackOnExceptionIfNecessary(Session session, Throwable ex) throws JMSException {
            count(session);
            batches.ended();
            super.rollbackOnExceptionIfNecessary(session, ex);
        }

        private void count(Session session) {
            try {
                if (!session.getTransacted() || !isSessionLocallyTransacted(session)) {
                    return;
                }
            } catch (JMSException | RuntimeException closed) {
                // a session that broke: the broker rolls its transaction back
            }
            rollbacks.increment();
        }
    }
}
