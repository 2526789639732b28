package io.legacygateway.inbox;

import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import jakarta.jms.ConnectionFactory;
import java.util.HashMap;
import java.util.Map;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The inbox consumer's contract again, every consumer with {@code transactionMode: XA} (the standalone broker). */
abstract class InboxConsumerInXaContractTest extends InboxConsumerContractTest {

    @DynamicPropertySource
    static void targetPoolBrokerAndTransactionLog(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Override
    protected Map<String, String> parameters(String consumer, String queue, Map<String, String> extra) {
        Map<String, String> xa = new HashMap<>(extra);
        xa.putIfAbsent("transactionMode", "XA");
        return super.parameters(consumer, queue, xa);
    }
}
