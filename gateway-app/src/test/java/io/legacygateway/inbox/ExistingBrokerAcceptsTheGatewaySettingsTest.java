package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code docs/deployment.md}, "An existing broker": a broker made by a stock {@code artemis create} (its own
 * broker.xml, users and roles) with {@code artemis-config/existing-broker.xml} merged into its broker.xml as the file
 * says (the address settings into {@code <address-settings>}, the address into {@code <addresses>}, nothing else)
 * starts, and its management answers for a gateway address with the settings inbox consumers require (dead-letter
 * address {@code DLA} with auto-created {@code DLQ.<address>} queues, 6 deliveries, backoff), while its other addresses
 * keep the broker's own.
 */
class ExistingBrokerAcceptsTheGatewaySettingsTest {

    private static final String CORE = "urn:activemq:core";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aStockBrokerWithTheSnippetMergedInStartsAndGivesTheGatewaysAddressesItsSettings() throws Exception {
        Path dir = Files.createTempDirectory("gw-existing-artemis-");
        StandaloneArtemis broker = StandaloneArtemis.createStock(dir.resolve("broker"));
        Path etc = broker.instance().resolve("etc");
        String users = Files.readString(etc.resolve("artemis-users.properties"));
        String roles = Files.readString(etc.resolve("artemis-roles.properties"));
        merge(etc.resolve("broker.xml"),
                StandaloneArtemis.repositoryRoot().resolve("artemis-config/existing-broker.xml"));
        try {
            broker.start();

            BrokerQueueSettings gateway = BrokerQueueSettings.fromBroker(broker.adminConnectionFactory(),
                    "orders.created", TIMEOUT);
            assertThat(gateway.deadLetterAddress()).isEqualTo("DLA");
            assertThat(gateway.autoCreateDeadLetterResources()).isTrue();
            assertThat(gateway.deadLetterQueue("orders.created")).isEqualTo("DLQ.orders.created");
            assertThat(gateway.maxDeliveryAttempts()).isEqualTo(6);
            assertThat(gateway.redeliveryDelay()).isEqualTo(1000);
            assertThat(gateway.maxRedeliveryDelay()).isEqualTo(60000);
            assertThat(BrokerQueueSettings.fromBroker(broker.adminConnectionFactory(), "DLA", TIMEOUT)
                    .maxDeliveryAttempts()).as("dead letters are kept").isEqualTo(-1);

            BrokerQueueSettings other = BrokerQueueSettings.fromBroker(broker.adminConnectionFactory(),
                    "billing.invoices", TIMEOUT);
            assertThat(other.deadLetterAddress()).as("the broker's own '#' setting stays").isEqualTo("DLQ");
            assertThat(other.autoCreateDeadLetterResources()).isFalse();
        } finally {
            broker.kill();
        }
        assertThat(Files.readString(etc.resolve("artemis-users.properties"))).isEqualTo(users);
        assertThat(Files.readString(etc.resolve("artemis-roles.properties"))).isEqualTo(roles);
        assertThat(Files.readString(etc.resolve("broker.xml"))).as("the broker's own security settings stay")
                .contains("roles=\"amq\"");
        FileSystemUtils.deleteRecursively(dir);
    }

    /** Merges as the snippet's comment says: its settings and addresses after the broker's own, nothing else. */
    private static void merge(Path brokerXml, Path snippet) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document broker = factory.newDocumentBuilder().parse(brokerXml.toFile());
        Document gateway = factory.newDocumentBuilder().parse(snippet.toFile());
        for (String section : new String[] {"address-settings", "addresses"}) {
            Element target = only(broker.getElementsByTagNameNS(CORE, section));
            NodeList children = only(gateway.getElementsByTagNameNS(CORE, section)).getChildNodes();
            int merged = 0;
            for (int i = 0; i < children.getLength(); i++) {
                if (children.item(i).getNodeType() == Node.ELEMENT_NODE) {
                    target.appendChild(broker.importNode(children.item(i), true));
                    merged++;
                }
            }
            assertThat(merged).as("elements of " + section + " in the snippet").isPositive();
        }
        TransformerFactory.newInstance().newTransformer()
                .transform(new DOMSource(broker), new StreamResult(brokerXml.toFile()));
    }

    private static Element only(NodeList nodes) {
        assertThat(nodes.getLength()).isEqualTo(1);
        return (Element) nodes.item(0);
    }
}
