package io.legacygateway.inbox;

import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.DurationText;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.tracing.GatewayTracing;
import io.legacygateway.transactions.TransactionMode;
import io.legacygateway.transactions.XaTransactions;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.jms.MessageListenerContainerFactory;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Builds an {@link InboxConsumer} from the parameters of an {@code inbox-consumer} route: validates them, inspects
 * the inbox tables, reads the broker's dead-letter settings for the queue, and fails with a message naming the
 * parameter when something does not fit.
 */
public class InboxConsumerFactory implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumerFactory.class);
    private static final Duration BROKER_QUERY_TIMEOUT = Duration.ofSeconds(10);

    private final GatewayDataSources dataSources;
    private final GatewayProperties properties;
    private final ConnectionFactory applicationConnectionFactory;
    private final MeterRegistry meters;
    private final Clock clock;
    private final List<InboxDeliveryHook> hooks;
    private final GatewayTracing tracing;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final List<InboxConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<Consumer<InboxConsumer>> listeners = new CopyOnWriteArrayList<>();
    private final List<ConnectionFactory> connectionFactories = new CopyOnWriteArrayList<>();
    private final List<ProducerTemplate> producers = new CopyOnWriteArrayList<>();
    private final ConsumerResources held = new ConsumerResources();
    private final List<Consumer<InboxConsumer>> releaseListeners = new CopyOnWriteArrayList<>();
    private final InboxTransactions transactions;
    /** The global transactions of each XA consumer's listener containers, by consumer name. */
    private final Map<String, InboxTransactions.Xa> xaListeners = new ConcurrentHashMap<>();

    public InboxConsumerFactory(GatewayProperties properties, GatewayDataSources dataSources,
                                ConnectionFactory applicationConnectionFactory, XaTransactions xa, MeterRegistry meters,
                                Clock clock, List<InboxDeliveryHook> hooks, GatewayTracing tracing) {
        this.properties = properties;
        this.dataSources = dataSources;
        this.applicationConnectionFactory = applicationConnectionFactory;
        this.meters = meters;
        this.clock = clock;
        this.hooks = List.copyOf(hooks);
        this.tracing = tracing;
        this.transactions = new InboxTransactions(dataSources, applicationConnectionFactory, xa);
    }

    /**
     * A connection factory for one consumer route (its {@code consumerWindowSize}; an XA factory for
     * {@code transactionMode: XA}); closed with the application.
     */
    public ConnectionFactory connectionFactory(InboxSettings settings) {
        ConnectionFactory cf = ConsumerConnectionFactory.create(applicationConnectionFactory,
                settings.consumerWindowSize(), settings.transactionMode() == TransactionMode.XA);
        connectionFactories.add(cf);
        if (cf instanceof ActiveMQConnectionFactory a) {
            held.add(settings.consumer(), () -> {
                connectionFactories.remove(a);
                a.close();
            });
        }
        return cf;
    }

    /** The listener containers of {@code consumer}'s route: they count its rollbacks and run the hooks. */
    public MessageListenerContainerFactory listenerContainers(InboxConsumer consumer) {
        return new InboxListenerContainers(consumer.name(), consumer.rollbacks(), hooks, consumer.batches(),
                xaListeners.get(consumer.name()));
    }

    public InboxConsumer create(Map<String, Object> parameters, CamelContext camel) {
        InboxSettings s = InboxSettings.parse(parameters,
                dataSources.names().size() == 1 ? dataSources.names().iterator().next() : null);
        String c = s.consumer();
        if (consumers.stream().anyMatch(x -> x.name().equals(c))) {
            throw new IllegalArgumentException(InboxSettings.label(c, "consumer") + ": the name '" + c
                    + "' is used twice");
        }
        DataSource dataSource = dataSources.get(s.dataSource(), InboxSettings.label(c, "dataSource"));
        Dialect dialect = dataSources.dialect(s.dataSource());
        if (!InboxStore.supports(dialect)) {
            throw new IllegalArgumentException(InboxSettings.label(c, "dataSource") + ": the inbox has no statements"
                    + " for " + dialect.id() + " (supported: PostgreSQL, MariaDB, H2)");
        }
        InboxTransactions.Batches batches = transactions.batches(s, dataSource, dialect, hooks);
        held.add(c, () -> transactions.release(batches));
        dataSources.initializeSchema(s.dataSource(), GatewaySchema.INBOX, "inbox consumer '" + c + "'");
        TableName inbox = table(dataSource, dialect, s.inboxTable(), c, "inboxTable", "message_id", "consumer_name",
                "processed_at");
        InboxStore store = store(s, dataSource, dialect, inbox);
        // XA: the batches write through the XA pool (the global transaction's branch); retention keeps the plain pool
        InboxStore batchStore = batches.dataSource() == dataSource ? store
                : store(s, batches.dataSource(), dialect, inbox);
        Map<String, List<InboxEffect>> effects = effects(s, batches.dataSource(), camel);
        Upcasts upcasts = Upcasts.compile(s, camel, meters);
        BrokerQueueSettings broker = broker(s);
        int attempts = deliveryAttempts(s, broker);
        InboxRetentionCheck.requireCoversRedelivery(properties, c, s.queue().address(), broker, attempts);
        TransactionTemplate tx = new TransactionTemplate(dataSources.transactionManager(s.dataSource()));
        InboxGuard guard = new InboxGuard(c, batchStore, batches.transaction(), effects, s.sequence() != null, codec,
                clock, hooks, upcasts);
        InboundMessageReader reader = new InboundMessageReader(codec, s.accept(), s.maxPayloadBytes(), s.sequence());
        DeadLetterWriter deadLetters = new DeadLetterWriter(broker, s.queue(), c, clock);
        InboxConsumer consumer = new InboxConsumer(s, attempts, reader, guard, deadLetters, hooks, meters, clock,
                store, tx, dialect, () -> DatabaseOutage.answers(dataSource), tracing);
        if (batches.xa() != null) {
            xaListeners.put(c, batches.xa());
        }
        if (upcasts != Upcasts.NONE) {
            UpcastRouteCheck.register(camel, upcasts);
        }
        consumers.add(consumer);
        listeners.forEach(l -> l.accept(consumer));
        log.info("Inbox consumer '{}': queue {} -> {} {} (accept {}, {} session(s), dead letters to {} after {} "
                        + "deliveries, batches of up to {} within {}, consumer window {} bytes, "
                        + "transactionMode {}{}{}){}",
                c, s.queue(),
                dialect.id(), inbox, s.accept(), s.concurrentConsumers(), deadLetters.deadLetterQueue(),
                attempts, s.batchSize(), DurationText.format(s.batchWait()), s.consumerWindowSize(),
                s.transactionMode(), s.sequence() == null ? "" : ", sequence gate on " + s.sequence(),
                s.upcasts().isEmpty() ? "" : ", upcasts " + s.upcasts().stream()
                        .map(u -> u.type() + ":" + u.from() + "->" + (u.from() + 1)).toList(),
                dialect.testedHere() ? "" : " [dialect NOT tested by this project]");
        return consumer;
    }

    private InboxStore store(InboxSettings s, DataSource dataSource, Dialect dialect, TableName inbox) {
        String c = s.consumer();
        TableName sequences = null;
        TableName parked = null;
        if (s.sequence() != null) {
            sequences = table(dataSource, dialect, s.sequenceTable(), c, "sequenceTable", "consumer_name",
                    "aggregate_key", "last_sequence");
            parked = table(dataSource, dialect, s.parkedTable(), c, "parkedTable", "consumer_name", "aggregate_key",
                    "sequence_number", "message_id", "envelope", "parked_at");
        }
        return new InboxStore(dataSource, dialect, inbox, sequences, parked);
    }

    /** The broker's settings for the consumer's queue, which must keep dead letters. */
    private BrokerQueueSettings broker(InboxSettings s) {
        BrokerQueueSettings broker = BrokerQueueSettings.resolve(brokerQueryFactory(), s.queue().address(),
                BROKER_QUERY_TIMEOUT);
        if (broker.deadLetterAddress() == null || broker.deadLetterAddress().isBlank()
                || !broker.autoCreateDeadLetterResources()) {
            throw new IllegalArgumentException(InboxSettings.label(s.consumer(), "queue") + ": the broker's address"
                    + " settings for '" + s.queue().address() + "' (" + broker.source() + ") must set a"
                    + " dead-letter-address and auto-create-dead-letter-resources=true, as artemis-config/broker.xml"
                    + " does; without them dead letters would be dropped");
        }
        return broker;
    }

    /**
     * The delivery on which the gateway dead-letters a failing message: {@code maxDeliveryAttempts}, else the broker's
     * max-delivery-attempts, else 10; never beyond the broker's, which would dead-letter first without a reason.
     */
    private static int deliveryAttempts(InboxSettings s, BrokerQueueSettings broker) {
        int brokerMax = broker.maxDeliveryAttempts();
        if (s.maxDeliveryAttempts() == null) {
            return brokerMax > 0 ? brokerMax : 10;
        }
        int attempts = s.maxDeliveryAttempts();
        if (brokerMax > 0 && attempts > brokerMax) {
            throw new IllegalArgumentException(InboxSettings.label(s.consumer(), "maxDeliveryAttempts") + ": "
                    + attempts + " exceeds the broker's max-delivery-attempts " + brokerMax + " for '"
                    + s.queue().address() + "' (" + broker.source() + "): the broker would dead-letter the message"
                    + " first, without a reason");
        }
        return attempts;
    }

    /** Calls {@code listener} for every consumer created so far and from now on. */
    public void onCreate(Consumer<InboxConsumer> listener) {
        listeners.add(listener);
        consumers.forEach(listener);
    }

    /** Calls {@code listener} for every consumer {@link #release released} from now on. */
    public void onRelease(Consumer<InboxConsumer> listener) {
        releaseListeners.add(listener);
    }

    /**
     * Releases the consumer of that name once its route has been stopped and removed (a route edited without a
     * restart; Camel has stopped and destroyed its listener containers): closes its connection factory and its
     * effects' producer, and forgets it, so that the name may be used again. Its counters and timers stay registered
     * (it has no gauges): the next consumer of that name counts on in them. An XA consumer's connection pool is closed
     * too.
     *
     * @return whether a consumer of that name was there
     */
    public boolean release(String name) {
        InboxConsumer consumer = consumers.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
        if (consumer != null) {
            consumers.remove(consumer);
        }
        xaListeners.remove(name);
        held.close(name);
        if (consumer == null) {
            return false; // its route failed to be created: what it had opened is closed all the same
        }
        releaseListeners.forEach(l -> l.accept(consumer));
        return true;
    }

    /** The consumers created so far (operations and tests). */
    public List<InboxConsumer> consumers() {
        return List.copyOf(consumers);
    }

    private Map<String, List<InboxEffect>> effects(InboxSettings s, DataSource dataSource, CamelContext camel) {
        Map<String, List<InboxEffect>> effects = new LinkedHashMap<>();
        ProducerTemplate producer = null;
        for (Map.Entry<String, InboxSettings.Effect> e : s.effects().entrySet()) {
            List<InboxEffect> list = new ArrayList<>();
            InboxSettings.Effect effect = e.getValue();
            if (effect.sql() != null) {
                list.add(new SqlEffect(InboxSettings.label(s.consumer(), effect.sqlParameter()), effect.sql(),
                        s.requireRows(), s.consumer(), dataSource));
            }
            if (effect.endpoint() != null) {
                try {
                    camel.getEndpoint(effect.endpoint());
                } catch (RuntimeException ex) {
                    throw new IllegalArgumentException(InboxSettings.label(s.consumer(), effect.endpointParameter())
                            + ": '" + effect.endpoint() + "' is not a usable endpoint: " + ex.getMessage(), ex);
                }
                if (producer == null) {
                    ProducerTemplate created = camel.createProducerTemplate();
                    producers.add(created);
                    held.add(s.consumer(), () -> {
                        producers.remove(created);
                        created.stop();
                    });
                    producer = created;
                }
                list.add(new EndpointEffect(producer, effect.endpoint(), s.consumer(), dataSource));
            }
            effects.put(e.getKey(), list);
        }
        return effects;
    }

    private static final String KEYS_PAD_SPACES = "inbox.keysPadSpaces";

    private static TableName table(DataSource dataSource, Dialect dialect, TableName configured, String consumer,
                                   String parameter, String... columns) {
        String label = InboxSettings.label(consumer, parameter);
        TableInspector.Table table = TableInspector.inspect(dataSource, dialect, configured, label);
        for (String column : columns) {
            if (table.column(column).isEmpty()) {
                throw new IllegalArgumentException(label + ": table '" + table.name() + "' has no column '" + column
                        + "' (see ddl/" + dialect.id() + "/inbox.sql)");
            }
        }
        requireExactKeys(dataSource, dialect, table.name(), label);
        return table.name();
    }

    /**
     * Refuses an inbox or gate table whose key columns ignore trailing spaces (MariaDB's PAD SPACE collations, such as
     * {@code utf8mb4_bin}): {@code evt-1} and {@code evt-1 } would be one id, and the second event's effect would be
     * skipped as a duplicate. Databases without the check's statement compare exactly (PostgreSQL, H2).
     */
    private static void requireExactKeys(DataSource dataSource, Dialect dialect, TableName table, String label) {
        if (!dialect.has(KEYS_PAD_SPACES)) {
            return;
        }
        List<Map<String, Object>> padded = new org.springframework.jdbc.core.JdbcTemplate(dataSource).queryForList(
                dialect.sql(KEYS_PAD_SPACES, Map.of()), table.schema(), table.table());
        if (!padded.isEmpty()) {
            Map<String, Object> first = padded.get(0);
            String collation = String.valueOf(first.values().toArray()[1]);
            throw new IllegalArgumentException(label + ": table '" + table + "' compares its key column(s) "
                    + padded.stream().map(r -> String.valueOf(r.values().iterator().next())).toList()
                    + " with collation " + collation + ", which ignores trailing spaces (PAD SPACE): 'evt-1' and"
                    + " 'evt-1 ' would be one id and the second event's effect skipped. Fix: ALTER TABLE "
                    + dialect.quote(table) + " CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin"
                    + " (docs/inbox.md, Inbox schema)");
        }
    }

    /** Management requests need a plain (non-caching) factory: the same servers and credentials. */
    private ConnectionFactory brokerQueryFactory() {
        return applicationConnectionFactory;
    }

    @Override
    public void destroy() {
        producers.forEach(p -> {
            try {
                p.stop();
            } catch (RuntimeException ignored) {
                // the context is closing anyway
            }
        });
        transactions.close();
        for (ConnectionFactory cf : connectionFactories) {
            if (cf instanceof ActiveMQConnectionFactory a) {
                a.close();
            }
        }
    }
}
