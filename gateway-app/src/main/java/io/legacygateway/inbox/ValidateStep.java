package io.legacygateway.inbox;

import io.legacygateway.inbox.DeliveryBatch.Delivery;
import io.legacygateway.tracing.GatewayTracing;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * {@code validate-<consumer>}, once per received message (the body): the message becomes an envelope and joins the
 * batch's deliveries, or it is dead-lettered ({@link FailureDecisions#invalid}; while traces are on, with an
 * {@code inbox apply} span in error).
 */
final class ValidateStep implements Processor {

    private final InboundMessageReader reader;
    private final FailureDecisions decisions;
    private final String consumer;
    private final GatewayTracing tracing;

    ValidateStep(InboundMessageReader reader, FailureDecisions decisions, String consumer, GatewayTracing tracing) {
        this.reader = reader;
        this.decisions = decisions;
        this.consumer = consumer;
        this.tracing = tracing;
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
            if (tracing.on()) {
                // a message that is no envelope (or not one for this consumer): its span says why it went nowhere
                tracing.apply(consumer, ApplyStep.traceparent(message), null, null, null)
                        .tag("gateway.inbox.outcome", "DEAD_LETTERED").error(e).end();
            }
            decisions.invalid(batch.session, message, e, delivery);
        }
    }
}
