package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.OnH2;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * Every operation of the gateway's MBeans ({@code io.legacygateway:*}: a relay, an inbox consumer, the reconciliation,
 * the dead letters) has a description and named, described parameters in its MBeanInfo on the platform MBean server,
 * which is what Hawtio shows. Before, the relay, consumer and reconciliation MBeans had the JMX defaults: parameters
 * {@code p1}, {@code p2} and the same generic description for every operation.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "spring.jmx.enabled=true")
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@OnH2
class GatewayMBeansAreDescribedTest {

    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    CamelContext camel;

    @Test
    void everyOperationHasADescriptionAndNamedDescribedParameters() throws Exception {
        relays.create(Map.of("relay", "jmx-described", "dataSource", "legacy", "destination", "queue:jmx.described"));
        TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE).routeId("inbox-consumer-jmx-described")
                .parameter("consumer", "jmx-described").parameter("dataSource", "legacy")
                .parameter("queue", "jmx.described").parameter("accept", "OrderCreated:1")
                .parameter("effectSql", "UPDATE inbox SET processed_at = processed_at WHERE message_id = :id").add();

        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = server.queryNames(new ObjectName("io.legacygateway:*"), null);
        assertThat(names).contains(new ObjectName("io.legacygateway:type=Relay,name=jmx-described"),
                new ObjectName("io.legacygateway:type=Consumer,name=jmx-described"),
                new ObjectName("io.legacygateway:type=Reconciliation"),
                new ObjectName("io.legacygateway:type=DeadLetters,name=redelivery"));
        List<String> undescribed = new ArrayList<>();
        int operations = 0;
        for (ObjectName name : names) {
            MBeanInfo info = server.getMBeanInfo(name);
            for (MBeanOperationInfo op : info.getOperations()) {
                operations++;
                String where = name + " " + op.getName();
                if (op.getDescription() == null || op.getDescription().isBlank()
                        || op.getDescription().equals(op.getName())
                        || op.getDescription().equals("Operation exposed for management")) {
                    undescribed.add(where + ": description '" + op.getDescription() + "'");
                }
                for (MBeanParameterInfo p : op.getSignature()) {
                    if (p.getName().matches("p\\d+")) {
                        undescribed.add(where + ": parameter named " + p.getName());
                    }
                    if (p.getDescription() == null || p.getDescription().isBlank()
                            || p.getDescription().equals(p.getName())) {
                        undescribed.add(where + ": parameter " + p.getName() + " without description");
                    }
                }
            }
        }
        assertThat(operations).as("operations of the gateway's MBeans").isGreaterThanOrEqualTo(10);
        assertThat(undescribed).isEmpty();
        MBeanOperationInfo retry = List.of(server.getMBeanInfo(
                new ObjectName("io.legacygateway:type=Relay,name=jmx-described")).getOperations()).stream()
                .filter(o -> o.getName().equals("retryFailed")).findFirst().orElseThrow();
        assertThat(retry.getSignature()).extracting(MBeanParameterInfo::getName).containsExactly("ids", "dryRun");

        // docs/operations.md, "Hawtio: what is there": the embedded broker's queues are in the same JMX tree. The
        // consumer's listener creates its queue on its own thread once the route has started: wait for it
        ObjectName queue = new ObjectName("org.apache.activemq.artemis:component=addresses,subcomponent=queues,"
                + "queue=\"jmx.described\",*");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !server.queryNames(queue, null).isEmpty());
        assertThat(server.queryNames(queue, null)).singleElement()
                .satisfies(q -> assertThat(server.getAttribute(q, "MessageCount")).isEqualTo(0L));
    }
}
