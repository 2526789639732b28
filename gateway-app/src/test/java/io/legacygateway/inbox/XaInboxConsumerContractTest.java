package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.XaTransactionLog;
import io.legacygateway.transactions.XaTransactions;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code transactionMode: XA} for an inbox consumer on a real database and the standalone broker: the receive, the
 * inbox rows, the effects, the dead-letter copies and the acknowledgement are one global transaction, committed in two
 * phases. Each message is applied once with its inbox row and acknowledged; a second delivery of one message is
 * skipped by its inbox row; a poison message in a batch is dead-lettered alone with its reason (its database work
 * undone by a savepoint) and the others are applied once, without a rollback.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class XaInboxConsumerContractTest extends InboxTestSupport {

    @DynamicPropertySource
    static void brokerAndTransactionLog(DynamicPropertyRegistry registry) {
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }

    private static final Map<String, String> XA = Map.of("transactionMode", "XA");

    @Autowired
    XaTransactions xa;

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void appliesEachMessageOnceWithItsInboxRowInOneGlobalTransactionCommittedInTwoPhases() {
        String queue = unique("it.xa.inbox");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, XA);
        EventEnvelope first = orderCreated("alice", "5");
        EventEnvelope second = orderCreated("bob", "7");
        EventEnvelope paid = event("OrderPaid", first.subject(), "alice", "5", null);
        send(queue, first, second, paid);

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows(consumer) == 3 && count(queue) == 0);
        assertThat(effects(first.id())).isEqualTo(1);
        assertThat(effects(second.id())).isEqualTo(1);
        assertThat(effects()).isEqualTo(2);
        assertThat(target.queryForObject("SELECT paid FROM wallet WHERE customer_id = 'alice'", Integer.class))
                .isEqualTo(5);
        assertThat(faults.branchCommits(consumer)).as("the broker's and the database's branch of each batch"
                + " committed in phase two").isPositive().isEven();
        assertThat(xa.started()).isTrue();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).isZero();
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void aSecondDeliveryOfAnAppliedMessageIsSkippedByItsInboxRow() {
        String queue = unique("it.xa.dup");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, XA);
        EventEnvelope once = orderCreated("carol", "3");
        send(queue, once);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows(consumer) == 1 && count(queue) == 0);

        send(queue, once);
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> faults.outcomes(once.id()).contains(InboxOutcome.DUPLICATE));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> count(queue) == 0);
        assertThat(effects(once.id())).as("applied once").isEqualTo(1);
        assertThat(inboxRows(consumer)).isEqualTo(1);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void aPoisonMessageInABatchIsDeadLetteredAloneWithItsReasonAndTheOthersAppliedOnce() throws Exception {
        String queue = unique("it.xa.poison");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("transactionMode", "XA", "requireRows", "true"));
        EventEnvelope before = orderCreated("alice", "2");
        EventEnvelope poison = event("OrderPaid", "order-x", "nobody", "1", null);
        EventEnvelope after = orderCreated("bob", "4");
        send(queue, before, poison, after);

        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> deadLetters(queue).size() == 1 && inboxRows(consumer) == 2 && count(queue) == 0);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(poison.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("BUSINESS_RULE");
        assertThat(property(dead, DeadLetterWriter.REASON)).isNotBlank();
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).as("on its first delivery").isEqualTo(1);
        assertThat(effects(before.id())).isEqualTo(1);
        assertThat(effects(after.id())).isEqualTo(1);
        assertThat(effects()).isEqualTo(2);
        assertThat(countOnOwnConnection("SELECT COUNT(*) FROM inbox WHERE message_id = ?", poison.id()))
                .as("the poison's inbox row was undone with its savepoint").isZero();
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("isolated inside the global transaction: no"
                + " delivery attempt used").isZero();
    }
}
