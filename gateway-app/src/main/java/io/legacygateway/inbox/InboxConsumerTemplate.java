package io.legacygateway.inbox;

import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.OnExceptionDefinition;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.model.RouteTemplateDefinition;

/**
 * The {@code inbox-consumer} route template: a transacted JMS consumer whose one processor, an {@link InboxConsumer},
 * applies each message's effect once per consumer. Instantiated from YAML ({@code templatedRoute} with
 * {@code routeTemplateRef: inbox-consumer}); every parameter is listed in {@link InboxSettings.Parameter}.
 *
 * <p>The JMS side: {@code transacted=true} with {@code lazyCreateTransactionManager=false} gives Spring's listener
 * container a local transacted session and no transaction manager; it acknowledges (commits the session) only after
 * the route returned, and rolls the session back when the route throws, after which the broker redelivers with the
 * redelivery delay of broker.xml (redelivery in a transacted JMS route is the broker's, not Camel's). The default
 * acknowledgement mode would acknowledge before the route runs. {@code CACHE_CONSUMER} keeps each session's consumer
 * for the route's lifetime, which keeps message groups (one aggregate per consumer) stable; the consumer window is 0
 * ({@link ConsumerConnectionFactory}). {@code mapJmsMessage=false}: the body is read by the inbox, never converted by
 * Camel (no ObjectMessage deserialisation); {@code disableReplyTo}: a JMSReplyTo header is never answered.
 *
 * <p>Error handling, declared once here for every inbox route: the only Camel redelivery is for
 * {@link TargetDatabaseUnavailableException}, retried in-process without limit (1 s doubling up to
 * {@code maxBackoff}) so that a database outage uses no broker delivery attempts; it stops retrying when the route
 * stops, and the message then goes back to the broker unacknowledged. Everything else is decided by
 * {@link InboxConsumer}: dead letters are sent inside the JMS transaction, transient failures are thrown to roll the
 * session back. No dead-letter channel in Camel: its {@code handled} copy would be acknowledged outside the broker's
 * dead-letter address.
 */
public class InboxConsumerTemplate extends RouteBuilder {

    public static final String TEMPLATE = "inbox-consumer";
    public static final String ROUTE_PREFIX = "inbox-consumer-";

    private final InboxConsumerFactory factory;

    public InboxConsumerTemplate(InboxConsumerFactory factory) {
        this.factory = factory;
    }

    @Override
    public void configure() {
        RouteTemplateDefinition template = routeTemplate(TEMPLATE);
        for (InboxSettings.Parameter p : InboxSettings.Parameter.values()) {
            if (p.defaultValue() == null || !p.defaultValue().isEmpty()) {
                template.templateParameter(p.key(), p.defaultValue(), p.description());
            } else {
                template.templateOptionalParameter(p.key(), p.description());
            }
        }
        RouteDefinition route = template
                .templateBean("inboxConsumer", InboxConsumer.class,
                        rtc -> factory.create(rtc.getParameters(), rtc.getCamelContext()))
                .templateBean("inboxConnectionFactory", jakarta.jms.ConnectionFactory.class,
                        rtc -> factory.connectionFactory())
                .from("jms:queue:{{queue}}?connectionFactory=#{{inboxConnectionFactory}}"
                        + "&transacted=true&lazyCreateTransactionManager=false&cacheLevelName=CACHE_CONSUMER"
                        + "&concurrentConsumers={{concurrentConsumers}}&maxConcurrentConsumers={{concurrentConsumers}}"
                        + "&mapJmsMessage=false&disableReplyTo=true&receiveTimeout=1000"
                        + "&errorHandlerLoggingLevel=DEBUG&errorHandlerLogStackTrace=false")
                .routeDescription("Inbox consumer {{consumer}}: {{queue}} -> effect once per message")
                // InboxConsumer logs each failure once, in one line; the exchange's exhaustion would repeat it
                .errorHandler(defaultErrorHandler().logExhausted(false));
        OnExceptionDefinition unreachable = route.onException(TargetDatabaseUnavailableException.class)
                .maximumRedeliveries(-1).redeliveryDelay(1000).useExponentialBackOff().backOffMultiplier(2)
                .maximumRedeliveryDelay("{{maxBackoff}}")
                .retryAttemptedLogLevel(LoggingLevel.DEBUG).retriesExhaustedLogLevel(LoggingLevel.WARN)
                .logStackTrace(false).handled(false);
        // a stopping route hands the message back to the broker instead of waiting for the database
        unreachable.getRedeliveryPolicyType().allowRedeliveryWhileStopping(false);
        unreachable.end();
        route.process("#{{inboxConsumer}}").id("inbox-{{consumer}}");
    }
}
