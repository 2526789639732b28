package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.testsupport.OnH2;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.jta.JtaTransactionManager;

/**
 * LOCAL relays start nothing of XA (no Narayana, no JTA transaction manager bean, no second connection factory), and
 * an XA relay on H2 fails naming its parameter. No {@code gateway.transactions.*} is configured here.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@OnH2
class H2TransactionModeTest extends RelayTestSupport {

    @Autowired
    XaTransactions xa;
    @Autowired
    ApplicationContext context;

    @Test
    void aLocalRelayPublishesWithoutStartingAnythingOfXa() {
        String queue = unique("it.local");
        rows.insert("order-1", "OrderCreated", "{\"n\":1}");
        OutboxRelay relay = relay(unique("local"), "queue:" + queue, Map.of("transactionMode", "LOCAL"));

        assertThat(drain(relay)).isEqualTo(1);
        assertThat(broker.count(queue)).isEqualTo(1);
        assertThat(xa.started()).as("Narayana not started").isFalse();
        assertThat(context.getBeansOfType(ConnectionFactory.class)).as("Camel JMS still finds one factory").hasSize(1);
        assertThat(context.getBeansOfType(PlatformTransactionManager.class).values())
                .noneMatch(JtaTransactionManager.class::isInstance);
    }

    @Test
    void anXaRelayOnH2FailsNamingTheParameter() {
        String name = unique("xa-h2");
        assertThatThrownBy(() -> relay(name, "queue:" + unique("it.xa"), Map.of("transactionMode", "XA")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("outbox-relay '" + name + "' parameter 'transactionMode': XA needs a database"
                        + " that can prepare a transaction (PostgreSQL or MariaDB); datasource 'legacy' is h2");
        assertThat(xa.started()).isFalse();
    }
}
