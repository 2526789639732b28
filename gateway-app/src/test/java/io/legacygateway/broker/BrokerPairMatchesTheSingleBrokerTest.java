package io.legacygateway.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The broker pair of {@code artemis-config/ha/} is {@code artemis-config/broker.xml} plus HA, never a second copy that
 * drifts: every setting of the single broker's {@code <core>} (persistence and journal syncs, security, address
 * settings, addresses, the persisted duplicate-id cache) is in each HA file, equal, except its name, the acceptor's
 * default port (the backup's is 61617, so that both run on one host) and the duplicate-id cache's default size, which
 * the HA files size by the rule of docs/deployment.md "Broker HA" and which is never smaller. Each HA file adds the
 * connectors, the cluster credentials and connection, and its HA policy, and nothing else.
 */
class BrokerPairMatchesTheSingleBrokerTest {

    static final Path CONFIG = StandaloneArtemis.repositoryRoot().resolve("artemis-config");
    static final Set<String> OWN = Set.of("name", "acceptors", "id-cache-size");
    static final Set<String> ADDED = Set.of("connectors", "cluster-user", "cluster-password", "cluster-connections",
            "ha-policy");

    @ParameterizedTest
    @ValueSource(strings = {"ha/broker-primary.xml", "ha/broker-backup.xml"})
    void everySettingOfTheSingleBrokerIsInTheHaFileUnchanged(String haFile) throws Exception {
        Element single = core(CONFIG.resolve("broker.xml"));
        Element ha = core(CONFIG.resolve(haFile));
        List<String> singleNames = new ArrayList<>();
        for (Element setting : children(single)) {
            String name = setting.getTagName();
            singleNames.add(name);
            List<Element> same = children(ha).stream().filter(e -> e.getTagName().equals(name)).toList();
            assertThat(same).as(haFile + " <" + name + ">").hasSize(1);
            if (!OWN.contains(name)) {
                assertThat(same.get(0).isEqualNode(setting)).as(haFile + " <" + name + "> equals broker.xml's")
                        .isTrue();
            }
        }
        assertThat(children(ha)).extracting(Element::getTagName).as(haFile + ": broker.xml's settings and HA's")
                .filteredOn(n -> !singleNames.contains(n)).containsExactlyInAnyOrderElementsOf(ADDED);

        String singleAcceptor = text(single, "acceptor");
        String haAcceptor = text(ha, "acceptor");
        assertThat(haAcceptor.replaceFirst("\\$\\{artemis\\.port:\\d+}", "\\${artemis.port:61616}"))
                .as(haFile + " acceptor, but for its default port").isEqualTo(singleAcceptor);
        assertThat(text(ha, "persist-id-cache")).isEqualTo("true");
        assertThat(defaultOf(text(ha, "id-cache-size"))).as(haFile + " duplicate-id cache, by the rule")
                .isGreaterThanOrEqualTo(defaultOf(text(single, "id-cache-size")));
    }

    /** The default of a {@code ${name:default}} placeholder. */
    private static int defaultOf(String placeholder) {
        assertThat(placeholder).matches("\\$\\{artemis\\.idCacheSize:\\d+}");
        return Integer.parseInt(placeholder.substring(placeholder.indexOf(':') + 1, placeholder.length() - 1));
    }

    private static String text(Element core, String tag) {
        return core.getElementsByTagName(tag).item(0).getTextContent().strip();
    }

    private static List<Element> children(Element parent) {
        List<Element> elements = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                elements.add(e);
            }
        }
        return elements;
    }

    /** The file's {@code <core>}, without comments and whitespace between elements, so that only settings compare. */
    private static Element core(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setIgnoringComments(true);
        Document doc = factory.newDocumentBuilder().parse(file.toFile());
        strip(doc.getDocumentElement());
        return (Element) doc.getDocumentElement().getElementsByTagName("core").item(0);
    }

    private static void strip(Node node) {
        Node child = node.getFirstChild();
        while (child != null) {
            Node next = child.getNextSibling();
            if (child.getNodeType() == Node.TEXT_NODE && child.getTextContent().isBlank()) {
                node.removeChild(child);
            } else {
                strip(child);
            }
            child = next;
        }
    }
}
