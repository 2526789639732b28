package io.legacygateway.inbox;

import io.legacygateway.operator.GatewayMBeans;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import javax.management.ObjectName;
import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;

/**
 * The inbox consumers' operator surface, JMX only: one {@link Jmx} per consumer,
 * {@code io.legacygateway:type=Consumer,name=<consumer>}, registered as consumers are created ({@link GatewayMBeans}).
 */
public class ConsumerOperatorSurface {

    public ConsumerOperatorSurface(InboxConsumerFactory consumers, GatewayMBeans mbeans) {
        consumers.onCreate(c -> mbeans.register(name(c.name()), new Jmx(c)));
        consumers.onRelease(c -> mbeans.unregister(name(c.name())));
    }

    /** Consumer names are lowercase letters, digits and dashes: valid ObjectName values as they are. */
    public static ObjectName name(String consumer) {
        return GatewayMBeans.name("Consumer", consumer);
    }

    /**
     * One inbox consumer in JMX (Hawtio's JMX tab): its settings, and whether given messages are in its inbox (applied:
     * a redelivery of those would be skipped as a duplicate). Starting and stopping is on the consumer's Camel route
     * ({@code inbox-consumer-<consumer>}).
     */
    @ManagedResource(description = "One inbox consumer: its settings, and which messages its inbox has applied")
    public record Jmx(InboxConsumer consumer) {

        @ManagedAttribute(description = "The queue the consumer reads (parameter queue)")
        public String getQueue() {
            return consumer.settings().queue().toString();
        }

        @ManagedAttribute(description = "The datasource of its inbox and effects (parameter dataSource)")
        public String getDataSource() {
            return consumer.settings().dataSource();
        }

        @ManagedAttribute(description = "Its inbox table (parameter inboxTable)")
        public String getInboxTable() {
            return String.valueOf(consumer.settings().inboxTable());
        }

        @ManagedAttribute(description = "Where the broker and the consumer move messages that cannot be applied")
        public String getDeadLetterQueue() {
            return consumer.deadLetterQueue();
        }

        @ManagedAttribute(description = "Deliveries of a message before it is dead-lettered")
        public int getMaxDeliveryAttempts() {
            return consumer.maxDeliveryAttempts();
        }

        @ManagedAttribute(description = "Listener threads (parameter concurrentConsumers)")
        public int getConcurrentConsumers() {
            return consumer.settings().concurrentConsumers();
        }

        @ManagedAttribute(description = "Event types and versions it applies (parameter accept)")
        public List<String> getAcceptedTypes() {
            return List.copyOf(new TreeSet<>(consumer.settings().accept().types()));
        }

        /** The given event ids (comma-separated) this consumer has applied, sorted. */
        @ManagedOperation(description = "Which of these messages this consumer has applied (a redelivery of them"
                + " would be skipped as a duplicate), sorted")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "messageIds", description = "event ids, comma-separated")})
        public List<String> applied(String messageIds) {
            var ids = Arrays.stream(messageIds == null ? new String[0] : messageIds.split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList();
            return List.copyOf(new TreeSet<>(consumer.inboxStore().applied(consumer.name(), ids)));
        }
    }
}
