package io.legacygateway.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.inbox.InboxConsumer;
import io.legacygateway.inbox.InboxConsumerFactory;
import java.util.Arrays;
import java.util.TreeSet;
import javax.management.ObjectName;

/**
 * Registers one {@link ConsumerControlMBean} per inbox consumer, {@code io.legacygateway:type=Consumer,name=<consumer>},
 * as consumers are created ({@link GatewayMBeans}).
 */
public class ConsumerMBeans {

    private static final ObjectMapper JSON = new ObjectMapper();

    public ConsumerMBeans(InboxConsumerFactory consumers, GatewayMBeans mbeans) {
        consumers.onCreate(c -> mbeans.register(name(c.name()), new Control(c), ConsumerControlMBean.class));
    }

    /** Consumer names are lowercase letters, digits and dashes: valid ObjectName values as they are. */
    public static ObjectName name(String consumer) {
        return GatewayMBeans.name("Consumer", consumer);
    }

    /** One consumer's MBean. */
    record Control(InboxConsumer consumer) implements ConsumerControlMBean {

        @Override
        public String getQueue() {
            return consumer.settings().queue().toString();
        }

        @Override
        public String getDataSource() {
            return consumer.settings().dataSource();
        }

        @Override
        public String getInboxTable() {
            return String.valueOf(consumer.settings().inboxTable());
        }

        @Override
        public String getDeadLetterQueue() {
            return consumer.deadLetterQueue();
        }

        @Override
        public int getMaxDeliveryAttempts() {
            return consumer.maxDeliveryAttempts();
        }

        @Override
        public int getConcurrentConsumers() {
            return consumer.settings().concurrentConsumers();
        }

        @Override
        public String getAcceptedTypes() {
            return String.valueOf(new TreeSet<>(consumer.settings().accept().types()));
        }

        @Override
        public String applied(String messageIds) {
            var ids = Arrays.stream(messageIds == null ? new String[0] : messageIds.split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).toList();
            try {
                return JSON.writeValueAsString(new TreeSet<>(consumer.inboxStore().applied(consumer.name(), ids)));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
