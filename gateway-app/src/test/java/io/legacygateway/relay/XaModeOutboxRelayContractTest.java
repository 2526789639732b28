package io.legacygateway.relay;

import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import jakarta.jms.ConnectionFactory;
import java.util.HashMap;
import java.util.Map;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The relay's contract ({@link OutboxRelayContractTest}) in {@code transactionMode: XA}: every relay the contract
 * makes runs XA (Narayana, the standalone broker), and every case holds as in LOCAL. A subclass per database sets the
 * datasource, the standalone broker and the object store.
 */
abstract class XaModeOutboxRelayContractTest extends OutboxRelayContractTest {

    @DynamicPropertySource
    static void brokerAndTransactionLog(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Override
    protected OutboxRelay relay(String name, String destination, Map<String, Object> extra) {
        Map<String, Object> xa = new HashMap<>(extra);
        xa.putIfAbsent("transactionMode", "XA");
        return super.relay(name, destination, xa);
    }
}
