package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.adapters.Failures;
import io.legacygateway.broker.BrokerXmlCustomizer;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import java.time.Duration;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.apache.activemq.artemis.api.jms.management.JMSManagementHelper;
import org.apache.activemq.artemis.core.config.WildcardConfiguration;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.core.settings.impl.HierarchicalObjectRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's address settings for a consumer's queue that the inbox depends on: where dead letters go and after how
 * many deliveries the broker gives up by itself. Read from the running broker (management message
 * {@code getAddressSettingsAsJSON}); if the broker cannot be asked at startup, from the reviewed
 * {@code artemis-config/broker.xml} on the classpath, which the embedded and the standalone broker boot.
 *
 * @param redeliveryDelay       ms before the first redelivery of a rolled-back message
 * @param redeliveryMultiplier  factor applied to the delay after each redelivery
 * @param maxRedeliveryDelay    longest delay between two deliveries, ms
 * @param source where the values come from, for the log
 */
public record BrokerQueueSettings(String deadLetterAddress, String deadLetterQueuePrefix,
                                  String deadLetterQueueSuffix, boolean autoCreateDeadLetterResources,
                                  int maxDeliveryAttempts, long redeliveryDelay, double redeliveryMultiplier,
                                  long maxRedeliveryDelay, String source) {

    /**
     * The longest time the broker keeps redelivering a message that fails on every delivery: the sum of the delays
     * before deliveries 2 to {@code deliveries} ({@code redelivery-delay} times {@code redelivery-multiplier} per
     * delivery, at most {@code max-redelivery-delay}).
     */
    public Duration redeliverySpan(int deliveries) {
        double total = 0;
        double delay = redeliveryDelay;
        for (int i = 1; i < deliveries; i++) {
            total += Math.min(delay, maxRedeliveryDelay);
            delay *= redeliveryMultiplier;
        }
        return Duration.ofMillis(Math.round(total));
    }

    private static final Logger log = LoggerFactory.getLogger(BrokerQueueSettings.class);
    /** The broker's management address (Artemis default; broker.xml does not change it). */
    private static final String MANAGEMENT_ADDRESS = "activemq.management";

    /** Name of the dead-letter queue the broker creates for an address ({@code DLQ.<address>} in broker.xml). */
    public String deadLetterQueue(String address) {
        return deadLetterQueuePrefix + address + deadLetterQueueSuffix;
    }

    /** Asks the broker; falls back to the classpath broker.xml, logging why. */
    public static BrokerQueueSettings resolve(ConnectionFactory connectionFactory, String address, Duration timeout) {
        try {
            return fromBroker(connectionFactory, address, timeout);
        } catch (JMSException | RuntimeException e) {
            log.warn("Cannot read the broker's address settings for '{}' ({}); using {} instead", address,
                    Failures.describe(e), BrokerXmlCustomizer.RESOURCE);
            return fromBrokerXml(address);
        }
    }

    static BrokerQueueSettings fromBroker(ConnectionFactory connectionFactory, String address, Duration timeout)
            throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            TemporaryQueue reply = s.createTemporaryQueue();
            Message request = s.createMessage();
            JMSManagementHelper.putOperationInvocation(request, ResourceNames.BROKER, "getAddressSettingsAsJSON",
                    address);
            request.setJMSReplyTo(reply);
            try (MessageProducer p = s.createProducer(s.createQueue(MANAGEMENT_ADDRESS));
                 MessageConsumer r = s.createConsumer(reply)) {
                p.send(request);
                Message answer = r.receive(timeout.toMillis());
                if (answer == null) {
                    throw new IllegalStateException("no answer from the broker's management within " + timeout);
                }
                if (!JMSManagementHelper.hasOperationSucceeded(answer)) {
                    throw new IllegalStateException("management refused: " + JMSManagementHelper.getResult(answer));
                }
                JsonNode json = new ObjectMapper().readTree(String.valueOf(JMSManagementHelper.getResult(answer)));
                return new BrokerQueueSettings(text(json, "deadLetterAddress", null),
                        text(json, "deadLetterQueuePrefix", "DLQ."), text(json, "deadLetterQueueSuffix", ""),
                        json.path("autoCreateDeadLetterResources").asBoolean(false),
                        json.path("maxDeliveryAttempts").asInt(10), json.path("redeliveryDelay").asLong(0),
                        json.path("redeliveryMultiplier").asDouble(1.0),
                        json.path("maxRedeliveryDelay").asLong(json.path("redeliveryDelay").asLong(0) * 10),
                        "broker");
            } catch (JMSException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
    }

    static BrokerQueueSettings fromBrokerXml(String address) {
        HierarchicalObjectRepository<AddressSettings> repository =
                new HierarchicalObjectRepository<>(new WildcardConfiguration());
        repository.setDefault(new AddressSettings());
        BrokerXmlCustomizer.read().getAddressSettings().forEach(repository::addMatch);
        AddressSettings s = repository.getMatch(address);
        return new BrokerQueueSettings(s.getDeadLetterAddress() == null ? null : s.getDeadLetterAddress().toString(),
                s.getDeadLetterQueuePrefix().toString(), s.getDeadLetterQueueSuffix().toString(),
                s.isAutoCreateDeadLetterResources(), s.getMaxDeliveryAttempts(), s.getRedeliveryDelay(),
                s.getRedeliveryMultiplier(), s.getMaxRedeliveryDelay(), BrokerXmlCustomizer.RESOURCE);
    }

    private static String text(JsonNode json, String field, String fallback) {
        JsonNode n = json.get(field);
        return n == null || n.isNull() ? fallback : n.asText();
    }
}
