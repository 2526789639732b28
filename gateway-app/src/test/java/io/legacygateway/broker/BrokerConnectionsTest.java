package io.legacygateway.broker;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.ConnectionFactory;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.jms.connection.SingleConnectionFactory;

class BrokerConnectionsTest {

    @Test
    void relaysPublishWithAWindowForWholeBatchesAndTheSameBrokerAndUser() throws Exception {
        ActiveMQConnectionFactory application = new ActiveMQConnectionFactory(
                "tcp://127.0.0.1:61616?reconnectAttempts=7&callTimeout=12000&minLargeMessageSize=204800"
                        + "&compressLargeMessage=true", "gateway", "secret");
        assertThat(application.getProducerWindowSize()).isEqualTo(ActiveMQClient.DEFAULT_PRODUCER_WINDOW_SIZE);

        ActiveMQConnectionFactory publishing = (ActiveMQConnectionFactory) BrokerConnections.publishingFactory(
                application);

        assertThat(publishing).isNotSameAs(application).isNotInstanceOf(ActiveMQXAConnectionFactory.class);
        assertThat(publishing.getProducerWindowSize()).isEqualTo(BrokerConnections.PUBLISHER_WINDOW_BYTES);
        assertThat(publishing.getUser()).isEqualTo("gateway");
        assertThat(publishing.getPassword()).isEqualTo("secret");
        assertThat(publishing.getReconnectAttempts()).isEqualTo(7);
        assertThat(publishing.getCallTimeout()).isEqualTo(12000);
        assertThat(publishing.getMinLargeMessageSize()).isEqualTo(204800);
        assertThat(publishing.isCompressLargeMessage()).isTrue();
        assertThat(publishing.toURI().toString()).startsWith("tcp://127.0.0.1:61616");
        assertThat(application.getProducerWindowSize()).as("the application's factory is left as it was")
                .isEqualTo(ActiveMQClient.DEFAULT_PRODUCER_WINDOW_SIZE);
    }

    @Test
    void aCopyOfTheEmbeddedBrokersInVmFactoryKeepsItsSettersSettings() throws Exception {
        // the URI of an in-VM factory names only its connector: what its setters set must be copied by hand
        ActiveMQConnectionFactory embedded = new ActiveMQConnectionFactory("vm://0");
        embedded.setMinLargeMessageSize(2048);
        embedded.setCompressLargeMessage(true);
        embedded.setConsumerWindowSize(4096);
        embedded.setConfirmationWindowSize(8192);
        embedded.setCallTimeout(12000);
        embedded.setCallFailoverTimeout(7000);

        ActiveMQConnectionFactory copy = BrokerConnections.copyOf(embedded, false);

        assertThat(copy.toURI().toString()).startsWith("vm://0");
        assertThat(copy.getMinLargeMessageSize()).isEqualTo(2048);
        assertThat(copy.isCompressLargeMessage()).isTrue();
        assertThat(copy.getConsumerWindowSize()).isEqualTo(4096);
        assertThat(copy.getConfirmationWindowSize()).isEqualTo(8192);
        assertThat(copy.getCallTimeout()).isEqualTo(12000);
        assertThat(copy.getCallFailoverTimeout()).isEqualTo(7000);
    }

    @Test
    void aCopyKeepsEveryClientSettingOfTheBrokerUrlAndOfTheFactorysSetters() {
        ActiveMQConnectionFactory application = new ActiveMQConnectionFactory(
                "tcp://127.0.0.1:61616?minLargeMessageSize=204800&compressLargeMessage=true&confirmationWindowSize=4096",
                "gateway", "secret");
        application.setCallTimeout(12000);
        application.setReconnectAttempts(-1);

        ActiveMQConnectionFactory copy = BrokerConnections.copyOf(application, true);

        assertThat(copy).isNotSameAs(application).isInstanceOf(ActiveMQXAConnectionFactory.class);
        assertThat(copy.getMinLargeMessageSize()).isEqualTo(204800);
        assertThat(copy.isCompressLargeMessage()).isTrue();
        assertThat(copy.getConfirmationWindowSize()).isEqualTo(4096);
        assertThat(copy.getCallTimeout()).isEqualTo(12000);
        assertThat(copy.getReconnectAttempts()).isEqualTo(-1);
        assertThat(copy.getUser()).isEqualTo("gateway");
        assertThat(copy.getPassword()).isEqualTo("secret");
        copy.setConsumerWindowSize(0);
        assertThat(application.getConsumerWindowSize()).as("the application's factory is left as it was")
                .isEqualTo(ActiveMQClient.DEFAULT_CONSUMER_WINDOW_SIZE);
    }

    @Test
    void aProducerWindowTheBrokerUrlSetsIsKept() {
        ActiveMQConnectionFactory application = new ActiveMQConnectionFactory(
                "tcp://127.0.0.1:61616?producerWindowSize=-1");

        assertThat(BrokerConnections.publishingFactory(application)).isSameAs(application);
    }

    @Test
    void anXaFactoryStaysXaAndItsXaCopyKeepsTheWindow() {
        ActiveMQConnectionFactory publishing = (ActiveMQConnectionFactory) BrokerConnections.publishingFactory(
                new ActiveMQXAConnectionFactory("tcp://127.0.0.1:61616", "gateway", "secret"));

        assertThat(publishing).isInstanceOf(ActiveMQXAConnectionFactory.class);
        assertThat(publishing.getProducerWindowSize()).isEqualTo(BrokerConnections.PUBLISHER_WINDOW_BYTES);
        ActiveMQConnectionFactory xa = (ActiveMQConnectionFactory) BrokerConnections.xaFactory(publishing, "test");
        assertThat(xa.getProducerWindowSize()).as("XA relays' factory, derived from the relays'")
                .isEqualTo(BrokerConnections.PUBLISHER_WINDOW_BYTES);
    }

    @Test
    void anotherClientsFactoryIsUsedAsItIs() {
        ConnectionFactory other = new SingleConnectionFactory();

        assertThat(BrokerConnections.publishingFactory(other)).isSameAs(other);
    }
}
