package io.legacygateway.ops;

/**
 * One inbox consumer in JMX ({@code io.legacygateway:type=Consumer,name=<consumer>}, Hawtio's JMX tab): its settings,
 * and whether given messages are in its inbox (applied: a redelivery of those would be skipped as a duplicate).
 * Starting and stopping is on the consumer's Camel route ({@code inbox-consumer-<consumer>}).
 */
public interface ConsumerControlMBean {

    String getQueue();

    String getDataSource();

    String getInboxTable();

    String getDeadLetterQueue();

    int getMaxDeliveryAttempts();

    int getConcurrentConsumers();

    String getAcceptedTypes();

    /**
     * @param messageIds event ids, separated by commas
     * @return the ones this consumer has applied, as a JSON array
     */
    String applied(String messageIds);
}
