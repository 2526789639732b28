package io.legacygateway.inbox;

import jakarta.jms.ConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection factory of inbox consumers: the application's Artemis factory (same servers, credentials and
 * reconnection settings) with a consumer window of 0, so that the broker hands a consumer one message at a time and
 * keeps the rest on the queue. With a larger window, messages buffered by a consumer that dies are counted as delivered
 * once more each ({@code ServerConsumerImpl} does not trust a failed client), and healthy messages can reach the
 * dead-letter queue by crashes alone; and other consumers cannot take them meanwhile. Object messages are never
 * deserialised (empty allow list).
 */
final class ConsumerConnectionFactory {

    private static final Logger log = LoggerFactory.getLogger(ConsumerConnectionFactory.class);

    private ConsumerConnectionFactory() {
    }

    static ConnectionFactory create(ConnectionFactory application) {
        if (!(application instanceof ActiveMQConnectionFactory base)) {
            log.warn("Inbox consumers use connection factory {} as is: set consumerWindowSize=0 on it",
                    application.getClass().getName());
            return application;
        }
        ActiveMQConnectionFactory cf = base.getStaticConnectors() != null
                ? new ActiveMQConnectionFactory(base.isHA(), base.getStaticConnectors())
                : new ActiveMQConnectionFactory(base.isHA(), base.getDiscoveryGroupConfiguration());
        cf.setUser(base.getUser());
        cf.setPassword(base.getPassword());
        cf.setClientFailureCheckPeriod(base.getClientFailureCheckPeriod());
        cf.setConnectionTTL(base.getConnectionTTL());
        cf.setCallTimeout(base.getCallTimeout());
        cf.setRetryInterval(base.getRetryInterval());
        cf.setRetryIntervalMultiplier(base.getRetryIntervalMultiplier());
        cf.setMaxRetryInterval(base.getMaxRetryInterval());
        cf.setReconnectAttempts(base.getReconnectAttempts());
        cf.setInitialConnectAttempts(base.getInitialConnectAttempts());
        cf.setConsumerWindowSize(0);
        cf.setDeserializationAllowList("io.legacygateway.inbox.NothingIsDeserialised");
        return cf;
    }
}
