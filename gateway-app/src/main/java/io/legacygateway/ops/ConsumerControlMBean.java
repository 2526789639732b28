package io.legacygateway.ops;

import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;

/**
 * One inbox consumer in JMX ({@code io.legacygateway:type=Consumer,name=<consumer>}, Hawtio's JMX tab): its settings,
 * and whether given messages are in its inbox (applied: a redelivery of those would be skipped as a duplicate).
 * Starting and stopping is on the consumer's Camel route ({@code inbox-consumer-<consumer>}).
 */
public interface ConsumerControlMBean {

    @ManagedAttribute(description = "The queue the consumer reads (parameter queue)")
    String getQueue();

    @ManagedAttribute(description = "The datasource of its inbox and effects (parameter dataSource)")
    String getDataSource();

    @ManagedAttribute(description = "Its inbox table (parameter inboxTable)")
    String getInboxTable();

    @ManagedAttribute(description = "Where the broker and the consumer move messages that cannot be applied")
    String getDeadLetterQueue();

    @ManagedAttribute(description = "Deliveries of a message before it is dead-lettered")
    int getMaxDeliveryAttempts();

    @ManagedAttribute(description = "Listener threads (parameter concurrentConsumers)")
    int getConcurrentConsumers();

    @ManagedAttribute(description = "Event types and versions it applies (parameter accept)")
    String getAcceptedTypes();

    /**
     * @param messageIds event ids, separated by commas
     * @return the ones this consumer has applied, as a JSON array
     */
    @ManagedOperation(description = "Which of these messages this consumer has applied (a redelivery of them would"
            + " be skipped as a duplicate), as a JSON array")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "messageIds", description = "event ids, comma-separated")})
    String applied(String messageIds);
}
