package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Message;
import java.lang.reflect.Proxy;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/** The delivery count that decides whether a message ends its batch and when it is dead-lettered. */
class ListenerBatchesTest {

    @Test
    void theDeliveryCountIsTheProvidersJmsxDeliveryCount() {
        assertThat(ListenerBatches.deliveryCount(message(() -> 3))).isEqualTo(3);
        assertThat(ListenerBatches.deliveryCount(message(() -> 1))).isEqualTo(1);
    }

    @Test
    void aProviderThatDoesNotSetItCountsAsTheFirstDelivery() {
        // JMS: a property that is not set reads as null, and getIntProperty(null) is Integer.valueOf(null)
        assertThat(ListenerBatches.deliveryCount(message(() -> {
            throw new NumberFormatException("null");
        }))).isEqualTo(1);
        assertThat(ListenerBatches.deliveryCount(message(() -> 0))).isEqualTo(1);
    }

    private static Message message(IntSupplier deliveryCount) {
        return (Message) Proxy.newProxyInstance(Message.class.getClassLoader(), new Class<?>[] {Message.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getIntProperty") && "JMSXDeliveryCount".equals(args[0])) {
                        return deliveryCount.getAsInt();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
