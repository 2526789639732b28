package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.testsupport.OnMariaDb;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import io.legacygateway.transactions.XaNodeClaim;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Failure window: two gateways with one {@code gateway.transactions.node-id}. Each one's recovery presumes abort of
 * every prepared branch that carries its node id and that its own object store does not know, so it rolls back the
 * other's prepared broker branch after that one's database branch committed: a row marked published whose event is
 * never queued. The node id is claimed at start in the database of each XA relay ({@code gateway_xa_node}, kept by a
 * heartbeat): while another gateway holds it, an XA relay is refused at its start naming the key and the holder, and
 * this gateway's recovery never starts; once the other's heartbeat has lapsed, the node id is taken over; the same
 * instance (host and object store) claims it again at once. MariaDB, standalone broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnMariaDb
class SecondGatewayWithTheSameNodeIdIsRefusedTest extends RelayTestSupport {

    private static final String OTHER = "other-host:/var/lib/legacy-gateway/tx-log";

    @DynamicPropertySource
    static void legacyDatabaseAndBroker(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    @Autowired
    XaTransactions xa;

    @Override
    protected ConnectionFactory probeConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void aSecondGatewayWithTheSameNodeIdIsRefusedAtItsStartUntilTheHoldersHeartbeatLapses() {
        DataSource legacy = dataSources.get("legacy", "test");
        Dialect dialect = Dialect.detect(legacy);
        String queue = unique("it.xa.node");
        String id = rows.insert("order-1", "OrderCreated", "{\"n\":1}");

        // another gateway (another host, another object store) holds the node id and keeps its heartbeat
        try (XaNodeClaim other = XaNodeClaim.claim("legacy", legacy, dialect, XaTransactionLog.NODE_ID, OTHER,
                "the other gateway")) {
            assertThatThrownBy(() -> relay(unique("xa-node"), "queue:" + queue, Map.of("transactionMode", "XA")))
                    .hasMessageContaining("gateway.transactions.node-id '" + XaTransactionLog.NODE_ID + "'")
                    .hasMessageContaining(OTHER);
            assertThat(xa.started()).as("this gateway's recovery never ran").isFalse();
            assertThat(rows.status(id)).isEqualTo("PENDING");
        }

        // the other gateway is gone: its heartbeat lapses, and the node id is taken over
        rows.jdbc().update("UPDATE gateway_xa_node SET heartbeat_at = heartbeat_at - INTERVAL 2 MINUTE");
        OutboxRelay relay = relay(unique("xa-node"), "queue:" + queue, Map.of("transactionMode", "XA"));
        assertThat(rows.jdbc().queryForObject("SELECT holder FROM gateway_xa_node WHERE node_id = ?", String.class,
                XaTransactionLog.NODE_ID)).isEqualTo(XaNodeClaim.holder(XaTransactionLog.dir()));
        assertThat(drain(relay)).isEqualTo(1);
        assertThat(broker.drain(queue)).extracting(m -> QueueProbe.property(m, EnvelopeMessages.ID)).containsExactly(id);

        // the same instance restarted (same host, same object store) claims it again at once, heartbeat or not
        try (XaNodeClaim restarted = XaNodeClaim.claim("legacy", legacy, dialect, XaTransactionLog.NODE_ID,
                XaNodeClaim.holder(XaTransactionLog.dir()), "this gateway, restarted")) {
            assertThat(restarted.lost()).isFalse();
        }
    }
}
