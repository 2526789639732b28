package io.legacygateway.inbox;

import io.micrometer.core.instrument.Counter;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import java.util.List;
import org.apache.camel.component.jms.DefaultJmsMessageListenerContainer;
import org.apache.camel.component.jms.JmsEndpoint;
import org.apache.camel.component.jms.MessageListenerContainerFactory;
import org.springframework.jms.listener.AbstractMessageListenerContainer;

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
 * copy sent by {@link InboxConsumer} commits in the same transaction as the acknowledgement.
 */
final class InboxListenerContainers implements MessageListenerContainerFactory {

    private final String consumer;
    private final Counter rollbacks;
    private final List<InboxDeliveryHook> hooks;
    private final ListenerBatches batches;

    InboxListenerContainers(String consumer, Counter rollbacks, List<InboxDeliveryHook> hooks,
                            ListenerBatches batches) {
        this.consumer = consumer;
        this.rollbacks = rollbacks;
        this.hooks = List.copyOf(hooks);
        this.batches = batches;
    }

    @Override
    public AbstractMessageListenerContainer createMessageListenerContainer(JmsEndpoint endpoint) {
        return new Container(endpoint);
    }

    private final class Container extends DefaultJmsMessageListenerContainer {

        Container(JmsEndpoint endpoint) {
            super(endpoint);
        }

        @Override
        protected Message receiveMessage(MessageConsumer from) throws JMSException {
            Message first = super.receiveMessage(from);
            if (first != null) {
                batches.started(from, first);
            }
            return first;
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
            } catch (JMSException | RuntimeException e) {
                // a commit that fails leaves the transaction to the broker, which rolls it back
                if (message != null) {
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
