package io.legacygateway.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Effects written as camel-sql steps of a YAML route ({@code effectEndpoint: direct:...}, {@code to: sql:...} with
 * {@code dataSource=#target}, the consumer's datasource): they run on the inbox's connection, in its transaction, so
 * the inbox row and the steps' changes commit or roll back together, and the usual policy (duplicate skipped,
 * business rule dead-lettered at once, anything else retried until the last attempt) holds for them; a step on another
 * datasource ({@code elsewhere}, a second pool on the same database) does not join. Each real
 * database runs it through a small subclass; broker: the embedded Artemis, configured from artemis-config/broker.xml.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class SqlStepEffectContractTest extends InboxTestSupport {

    private final List<String> effectRoutes = new ArrayList<>();

    private static ConditionFactory await() {
        return Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50));
    }

    @AfterEach
    void removeEffectRoutes() throws Exception {
        removeConsumers();
        for (String id : effectRoutes) {
            if (camel.getRoute(id) != null) {
                camel.getRouteController().stopRoute(id);
                camel.removeRoute(id);
            }
        }
        effectRoutes.clear();
    }

    @Test
    void sqlStepsApplyEachEventOnceWithItsInboxRow() {
        String queue = unique("it.sql");
        String consumer = unique("wallet");
        String route = effectRoute("""
                        - to:
                            uri: "sql:UPDATE wallet SET total = total + :#amount WHERE customer_id = :#customerId"
                            parameters:
                              dataSource: "#target"
                        - to:
                            uri: "sql:INSERT INTO effect_log (message_id, customer_id, amount) VALUES (:#ce_id, :#customerId, :#amount)"
                            parameters:
                              dataSource: "#target"
                """);
        startConsumer(consumer, queue, endpointEffect(route));
        EventEnvelope alice = orderCreated("alice", "12.50");
        EventEnvelope bob = orderCreated("bob", "7");
        send(queue, alice, bob);

        await().until(() -> effects() == 2);
        assertThat(total("alice")).isEqualByComparingTo("12.50");
        assertThat(total("bob")).isEqualByComparingTo("7");
        assertThat(inboxRows(consumer)).isEqualTo(2);

        send(queue, alice);
        await().until(() -> counter("gateway.inbox.duplicates", consumer) == 1.0);
        assertThat(total("alice")).as("the duplicate is skipped").isEqualByComparingTo("12.50");
        assertThat(effects(alice.id())).isEqualTo(1);
        assertThat(inboxRows(consumer)).isEqualTo(2);
        await().until(() -> count(queue) == 0);
        assertThat(deadLetters(queue)).isEmpty();
        assertThat(new EffectRouteCheck(camel, dataSources).findings(List.of(consumer(consumer)))).isEmpty();
    }

    @Test
    void aSqlStepRefusedForItsDataRollsBackTheInboxRowAndIsDeadLetteredAtOnce() throws Exception {
        String queue = unique("it.sql-fail");
        String consumer = unique("wallet");
        // a wallet per new customer: a second wallet for alice violates the primary key (SQLSTATE 23), on every
        // attempt: the message's own data, dead-lettered on its first delivery
        String route = effectRoute("""
                        - to:
                            uri: "sql:INSERT INTO wallet (customer_id, total, paid) VALUES (:#customerId, :#amount, 0)"
                            parameters:
                              dataSource: "#target"
                """);
        Map<String, String> p = endpointEffect(route);
        p.put("maxDeliveryAttempts", "2");
        startConsumer(consumer, queue, p);
        EventEnvelope duplicateWallet = orderCreated("alice", "5");
        EventEnvelope newWallet = orderCreated("dave", "3");
        send(queue, duplicateWallet, newWallet);

        await().until(() -> deadLetters(queue).size() == 1);
        Message dead = deadLetters(queue).get(0);
        assertThat(property(dead, "ce_id")).isEqualTo(duplicateWallet.id());
        assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("DATA_REFUSED");
        assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
        // XA commits the broker's branch (the copy) before the database's
        await().untilAsserted(() -> assertThat(target.queryForList(
                "SELECT message_id FROM inbox WHERE consumer_name = ?", String.class, consumer))
                .containsExactly(newWallet.id()));
        await().until(() -> count(queue) == 0);
        assertThat(target.queryForList("SELECT customer_id FROM wallet ORDER BY customer_id", String.class))
                .containsExactly("alice", "bob", "carol", "dave");
        assertThat(total("alice")).isEqualByComparingTo("0");
        assertThat(total("dave")).isEqualByComparingTo("3");
        assertThat(counter("gateway.inbox.rollbacks", consumer)).as("none: dead-lettered on its first delivery")
                .isZero();
        assertThat(deadLetters(queue)).hasSize(1);
    }

    @Test
    void aBusinessRuleCheckAfterTheSqlStepRollsBackItsUpdateAndDeadLettersAtOnce() throws Exception {
        String queue = unique("it.sql-rule");
        String consumer = unique("wallet");
        // the SELECT sees the UPDATE before it is committed only on the same connection, in the same transaction
        String route = effectRoute("""
                        - to:
                            uri: "sql:UPDATE wallet SET total = total + :#amount WHERE customer_id = :#customerId"
                            parameters:
                              dataSource: "#target"
                        - filter:
                            simple: "${header.CamelSqlUpdateCount} == 0"
                            steps:
                              - throwException:
                                  exceptionType: io.legacygateway.inbox.BusinessRuleViolationException
                                  message: "no wallet for order ${header.ce_subject}"
                        - to:
                            uri: "sql:SELECT total FROM wallet WHERE customer_id = :#customerId"
                            parameters:
                              dataSource: "#target"
                              outputType: SelectOne
                              outputHeader: walletTotal
                        - filter:
                            simple: "${header.walletTotal} > 100"
                            steps:
                              - throwException:
                                  exceptionType: io.legacygateway.inbox.BusinessRuleViolationException
                                  message: "wallet over its limit"
                """);
        startConsumer(consumer, queue, endpointEffect(route));
        EventEnvelope overLimit = orderCreated("alice", "500");
        EventEnvelope noWallet = orderCreated("nobody", "1");
        EventEnvelope fits = orderCreated("alice", "50");
        send(queue, overLimit, noWallet, fits);

        await().until(() -> deadLetters(queue).size() == 2);
        await().until(() -> inboxRows(consumer) == 1);
        Map<String, String> reasons = new HashMap<>();
        for (Message dead : deadLetters(queue)) {
            assertThat(property(dead, DeadLetterWriter.REASON_CLASS)).isEqualTo("BUSINESS_RULE");
            assertThat(dead.getIntProperty(DeadLetterWriter.DELIVERY_COUNT)).isEqualTo(1);
            reasons.put(property(dead, "ce_id"), property(dead, DeadLetterWriter.REASON));
        }
        assertThat(reasons).containsExactlyInAnyOrderEntriesOf(Map.of(overLimit.id(), "wallet over its limit",
                noWallet.id(), "no wallet for order " + noWallet.subject()));
        assertThat(total("alice")).as("the update of the refused event rolled back").isEqualByComparingTo("50");
        assertThat(target.queryForList("SELECT message_id FROM inbox WHERE consumer_name = ?", String.class, consumer))
                .containsExactly(fits.id());
        await().until(() -> count(queue) == 0);
    }

    @Test
    void aSqlStepOnAnotherDataSourceDoesNotJoinTheInboxTransaction() throws Exception {
        String queue = unique("it.sql-elsewhere");
        String consumer = unique("wallet");
        // "elsewhere" is another pool on the same database: its connection is not the inbox's
        String route = effectRoute("""
                        - to:
                            uri: "sql:UPDATE wallet SET total = total + :#amount WHERE customer_id = :#customerId"
                            parameters:
                              dataSource: "#elsewhere"
                        - throwException:
                            exceptionType: io.legacygateway.inbox.BusinessRuleViolationException
                            message: "refused after the step"
                """);
        startConsumer(consumer, queue, endpointEffect(route));
        EventEnvelope refused = orderCreated("alice", "5");
        send(queue, refused);

        await().until(() -> deadLetters(queue).size() == 1);
        assertThat(property(deadLetters(queue).get(0), DeadLetterWriter.REASON_CLASS)).isEqualTo("BUSINESS_RULE");
        assertThat(inboxRows(consumer)).isZero();
        assertThat(total("alice")).as("committed on its own connection: half-applied").isEqualByComparingTo("5");
        assertThat(new EffectRouteCheck(camel, dataSources).findings(List.of(consumer(consumer)))).containsExactly(
                "inbox-consumer '" + consumer + "' parameter 'effectEndpoint.OrderCreated': route '" + route
                        + "' step 'sql:UPDATE wallet SET total = total + :#amount WHERE customer_id = :#customerId"
                        + "?dataSource=#elsewhere' runs on datasource 'elsewhere', not on the consumer's"
                        + " datasource 'target' (dataSource=#target): it does not join the inbox transaction and"
                        + " commits on its own, also when the inbox rolls back");
    }

    @Test
    void aSqlStepOnADataSourceThatIsNotConfiguredFailsItsRouteNamingItAndTheName() {
        String id = unique("apply-nowhere");
        Throwable t = catchThrowable(() -> loadRoute(id, """
                        - to:
                            uri: "sql:UPDATE wallet SET total = total + :#amount WHERE customer_id = :#customerId"
                            parameters:
                              dataSource: "#nosuch"
                """));
        assertThat(t).isNotNull();
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        assertThat(all.toString()).contains(id).contains("No bean could be found in the registry for: nosuch of type:"
                + " javax.sql.DataSource");
    }

    /**
     * The consumer's datasource {@code target} on {@code db}, and {@code elsewhere}: a second pool on the same schema.
     */
    static void register(DynamicPropertyRegistry registry, TestDatabase db, Class<?> testClass) {
        LegacyDatabases.register(registry, "target", db, testClass);
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "6");
        registry.add("gateway.datasources.elsewhere.url", () -> LegacyDatabases.directUrl("target", db, testClass));
        registry.add("gateway.datasources.elsewhere.username", db::username);
        registry.add("gateway.datasources.elsewhere.password", () -> "");
        registry.add("gateway.datasources.elsewhere.maximum-pool-size", () -> "2");
    }

    /**
     * A YAML route {@code from: direct:<id>} with these steps (indented as in the file), as docs/inbox.md shows it:
     * without Camel's error handler, whose log would repeat the inbox's.
     */
    private String effectRoute(String steps) {
        String id = unique("apply");
        try {
            loadRoute(id, steps);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return id;
    }

    private void loadRoute(String id, String steps) throws Exception {
        String yaml = """
                - route:
                    id: %s
                    errorHandler:
                      noErrorHandler: {}
                    from:
                      uri: direct:%s
                      steps:
                """.formatted(id, id) + steps;
        effectRoutes.add(id);
        PluginHelper.getRoutesLoader(camel).loadRoutes(ResourceHelper.fromString(id + ".yaml", yaml));
    }

    private Map<String, String> endpointEffect(String route) {
        Map<String, String> p = new HashMap<>();
        p.put("effectSql.OrderCreated", null);
        p.put("effectEndpoint.OrderCreated", "direct:" + route);
        return p;
    }

    private BigDecimal total(String customer) {
        return target.queryForObject("SELECT total FROM wallet WHERE customer_id = ?", BigDecimal.class, customer);
    }
}
