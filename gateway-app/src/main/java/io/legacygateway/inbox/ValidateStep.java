package io.legacygateway.inbox;

import io.legacygateway.inbox.DeliveryBatch.Delivery;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code validate-<consumer>}, once per received message (the body): the message becomes an envelope and joins the
 * batch's deliveries, or it is dead-lettered ({@link FailureDecisions#invalid}).
 */
final class ValidateStep implements Processor {

    private final InboundMessageReader reader;
    private final FailureDecisions decisions;

    ValidateStep(InboundMessageReader reader, FailureDecisions decisions) {
        this.reader = reader;
        this.decisions = decisions;
    }

    @Override
    public void process(Exchange exchange) throws JMSException {
        validate(InboxBatch.of(exchange, "validate"), exchange.getMessage().getBody(Message.class));
    }

    /** {@code message} joins the batch's deliveries, or is dead-lettered. */
    void validate(InboxBatch batch, Message message) throws JMSException {
        int delivery = ListenerBatches.deliveryCount(message);
        try {
            batch.deliveries.add(new Delivery(message, reader.read(message), delivery));
        } catch (DeadLetterException e) {
            decisions.invalid(batch.session, message, e, delivery);
        }
    }
}
