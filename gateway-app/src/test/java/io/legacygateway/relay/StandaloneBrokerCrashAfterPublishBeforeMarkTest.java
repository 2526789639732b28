package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import jakarta.jms.ConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The crash window on the standalone broker, which is restarted between the crash and the resend: the duplicate-id
 * cache is persisted ({@code persist-id-cache}), so the copies are still dropped after the restart.
 */
@OnPostgres
class StandaloneBrokerCrashAfterPublishBeforeMarkTest extends CrashAfterPublishBeforeMarkTest {

    @DynamicPropertySource
    static void legacyDatabaseAndBroker(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
    }

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Override
    protected void insideTheWindow() {
        StandaloneArtemis broker = StandaloneArtemis.shared();
        broker.stop();
        broker.start();
    }
}
