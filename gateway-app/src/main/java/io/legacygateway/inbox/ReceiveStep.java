package io.legacygateway.inbox;

import jakarta.jms.Message;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.jms.JmsMessage;
import org.apache.camel.support.DefaultMessage;

/**
 * {@code batch-<consumer>}: receives the rest of the batch the exchange's message starts, on the listener's session
 * ({@link ListenerBatches}: up to {@code batchSize - 1} more, waiting at most {@code batchWait}); the exchange's
 * message becomes a plain one (no JMS headers) whose body is the messages received, in order, and the exchange holds
 * the new {@link InboxBatch}.
 */
final class ReceiveStep implements Processor {

    private final InboxSettings settings;
    private final ListenerBatches batches;

    ReceiveStep(InboxSettings settings, ListenerBatches batches) {
        this.settings = settings;
        this.batches = batches;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        JmsMessage in = exchange.getIn(JmsMessage.class);
        if (in == null || in.getJmsMessage() == null || in.getJmsSession() == null) {
            throw new IllegalStateException("inbox-consumer '" + settings.consumer()
                    + "' must be fed by a transacted jms: endpoint");
        }
        List<Message> received = batches.fill(in.getJmsMessage(), settings.batchSize(), settings.maxBatchBytes(),
                settings.batchWait());
        exchange.setProperty(InboxBatch.PROPERTY, new InboxBatch(batches, in.getJmsSession(), received));
        // The splits copy the exchange's message for each message of the batch: a copy of the JmsMessage maps every JMS
        // property of the first message to a header again (a fifth of the listener threads' samples in a flight
        // recording). The steps read the batch from the property and the body, never the headers.
        DefaultMessage batchMessage = new DefaultMessage(exchange);
        batchMessage.setBody(received);
        exchange.setMessage(batchMessage);
    }
}
