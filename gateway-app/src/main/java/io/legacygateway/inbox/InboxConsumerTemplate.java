package io.legacygateway.inbox;

import jakarta.jms.ConnectionFactory;
import io.legacygateway.config.TemplateParameters;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.camel.Processor;
import org.apache.camel.RouteTemplateContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.jms.MessageListenerContainerFactory;
import org.apache.camel.model.RouteTemplateDefinition;

/**
 * The {@code inbox-consumer} route template: a transacted JMS consumer whose steps (each consumer's, from its
 * {@link InboxConsumer}) apply each message's effect once per consumer. Instantiated from YAML
 * ({@code templatedRoute} with {@code routeTemplateRef: inbox-consumer}); every parameter is listed in
 * {@link InboxParameters}. The
 * parameters are parsed once, into the route's {@link InboxSettings}; what Camel needs of them (the backoff) it gets
 * from there as numbers, never as the text of a parameter.
 *
 * <p>The JMS side: {@code transacted=true} with {@code lazyCreateTransactionManager=false} gives Spring's listener
 * container a local transacted session and no transaction manager; it acknowledges (commits the session) only after
 * the route returned, and rolls the session back when the route throws, after which the broker redelivers with the
 * redelivery delay of broker.xml (redelivery in a transacted JMS route is the broker's, not Camel's). The default
 * acknowledgement mode would acknowledge before the route runs. {@code exposeListenerSession=true}: the session the
 * route gets is the listener's own, the one that acknowledges, so a dead-letter copy commits with the acknowledgement,
 * and no connection is opened per message. {@code CACHE_CONSUMER} keeps the connection, the sessions and their
 * consumers for the route's lifetime, which keeps message groups (one aggregate per consumer) stable; the consumer
 * window is {@code consumerWindowSize} ({@link ConsumerConnectionFactory}). The listener container is {@link InboxListenerContainers}' (every
 * rollback counted).
 *
 * <p>Batches ({@code batchSize}, {@code batchWait}): camel-jms makes one exchange per message and commits the session
 * when it ends, so the batch is not built in Camel (an aggregator after the {@code jms:} consumer would acknowledge
 * each message before the batch's database commit). The exchange of the message the container received is the
 * batch's: the route receives the rest on the same listener session ({@link ListenerBatches}), applies them in one
 * database transaction and returns; the container's one commit then acknowledges them all. A batch of one is the
 * former one-message-per-transaction consumer. {@code mapJmsMessage=false}: the body is read by the inbox, never
 * converted by Camel (no ObjectMessage deserialisation); {@code disableReplyTo}: a JMSReplyTo header is never answered.
 *
 * <p>The route's steps, named processors so that Hawtio's route diagram and statistics show them:
 * {@code batch-<consumer>} (receives the batch; one exchange per batch) → a sequential split over the received messages,
 * {@code validate-<consumer>} (one per message; an invalid one is dead-lettered) → a loop with one iteration per
 * database transaction, {@code inbox-<consumer>} (the transaction: inbox rows, upcasts, effects; one per batch, more
 * while a failing message is isolated) → a sequential split over the messages it committed, {@code applied-<consumer>}
 * (after-commit hooks and outcome metrics; one per committed message) → {@code processed-<consumer>} (one per batch).
 * The whole batch is one exchange, on the listener's thread: the splits and the loop run on the calling thread, and
 * {@link InboxBatch#of} refuses a step that does not (the session, and in XA the global transaction, are that
 * thread's). The batch's state is the exchange property {@link InboxBatch#PROPERTY}, which the splits' sub-exchanges
 * share. The route calls its steps and nothing calls back into it: each step is a bean of the route (its consumer's),
 * and the steps read what they need from the batch.
 *
 * <p>Error handling, declared once here for every inbox route: none in Camel ({@code noErrorHandler}). A database
 * outage ({@link TargetDatabaseUnavailableException}) is waited out by the transaction step itself
 * ({@link ApplyStep#applyWhenReachable}: 1 s doubling up to {@code maxBackoff}, without limit, so that it uses no
 * broker delivery attempts): only the database transaction runs again, never the receive or the validation, and the
 * batch goes on where it stood; once the route stops, the message goes back to the broker unacknowledged. Everything
 * else is decided by {@link FailureDecisions}: dead letters are sent inside the JMS transaction, transient failures are
 * thrown to roll the session back. No Camel redelivery: a route error handler that may redeliver copies each
 * exchange before every step in case it has to (docs/architecture.md, "Decisions"); no dead-letter channel in Camel:
 * its {@code handled} copy would be acknowledged outside the broker's dead-letter address.
 */
public class InboxConsumerTemplate extends RouteBuilder {

    public static final String TEMPLATE = "inbox-consumer";
    public static final String ROUTE_PREFIX = "inbox-consumer-";

    private final InboxConsumerFactory factory;
    /** The consumer of each route being created: its beans share the one parse of the parameters. */
    private final Map<RouteTemplateContext, InboxConsumer> created = Collections.synchronizedMap(new WeakHashMap<>());

    public InboxConsumerTemplate(InboxConsumerFactory factory) {
        this.factory = factory;
    }

    @Override
    public void configure() {
        RouteTemplateDefinition template = routeTemplate(TEMPLATE);
        for (TemplateParameters.Definition p : TemplateParameters.definitions(InboxParameters.class)) {
            if (p.required() || (p.defaultValue() != null && !p.defaultValue().isEmpty())) {
                template.templateParameter(p.key(), p.defaultValue(), p.description());
            } else {
                template.templateOptionalParameter(p.key(), p.description());
            }
        }
        template
                .templateBean("inboxConnectionFactory", ConnectionFactory.class, rtc -> factory.connectionFactory(consumer(rtc).settings()))
                .templateBean("inboxListenerContainers", MessageListenerContainerFactory.class,
                        rtc -> factory.listenerContainers(consumer(rtc)))
                .templateBean("inboxReceive", Processor.class, rtc -> consumer(rtc).receiveStep())
                .templateBean("inboxValidate", Processor.class, rtc -> consumer(rtc).validateStep())
                .templateBean("inboxApply", Processor.class, rtc -> consumer(rtc).applyStep())
                .templateBean("inboxApplied", Processor.class, rtc -> consumer(rtc).appliedStep())
                .templateBean("inboxProcessed", Processor.class, rtc -> consumer(rtc).processedStep())
                .from("jms:queue:{{queue}}?connectionFactory=#{{inboxConnectionFactory}}"
                        + "&transacted=true&lazyCreateTransactionManager=false&cacheLevelName=CACHE_CONSUMER"
                        + "&exposeListenerSession=true"
                        + "&consumerType=Custom&messageListenerContainerFactory=#{{inboxListenerContainers}}"
                        + "&concurrentConsumers={{concurrentConsumers}}&maxConcurrentConsumers={{concurrentConsumers}}"
                        + "&mapJmsMessage=false&disableReplyTo=true&receiveTimeout=1000"
                        + "&errorHandlerLoggingLevel=DEBUG&errorHandlerLogStackTrace=false")
                .routeDescription("Inbox consumer {{consumer}}: {{queue}} -> batch -> validate each -> one database"
                        + " transaction (inbox rows, effects) -> each applied; then the JMS commit acknowledges")
                .errorHandler(noErrorHandler())
                // no body here is ever a stream (a JMS message, lists of them): without this, Camel would look for a
                // converter of each exchange's body to a stream cache, split copies included
                .noStreamCaching()
                .process("#{{inboxReceive}}").id("batch-{{consumer}}")
                .split(body()).stopOnException().id("each-message-{{consumer}}")
                    .process("#{{inboxValidate}}").id("validate-{{consumer}}")
                .end()
                // one iteration per database transaction: one for the batch, more while a failing message is isolated
                .loopDoWhile(InboxBatch.PENDING).id("each-transaction-{{consumer}}")
                    .process("#{{inboxApply}}").id("inbox-{{consumer}}")
                    .split(body()).stopOnException().id("each-applied-{{consumer}}")
                        .process("#{{inboxApplied}}").id("applied-{{consumer}}")
                    .end()
                .end()
                .process("#{{inboxProcessed}}").id("processed-{{consumer}}");
    }

    private InboxConsumer consumer(RouteTemplateContext rtc) {
        return created.computeIfAbsent(rtc, r -> factory.create(r.getParameters(), r.getCamelContext()));
    }
}
