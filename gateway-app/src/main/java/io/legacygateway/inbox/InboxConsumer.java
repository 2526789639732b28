package io.legacygateway.inbox;

import io.legacygateway.config.DurationText;
import io.legacygateway.envelope.EventEnvelope;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.component.jms.JmsMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles one delivery of an {@code inbox-consumer} route, on the JMS listener's thread, inside the listener's
 * transacted JMS session. Order of events: validate the message; run the {@link InboxGuard} database transaction
 * (inbox row, effect, commit); return, after which the listener commits the JMS session, which acknowledges the
 * message. So the acknowledgement always follows the database commit; a crash in between redelivers a message whose
 * effect is applied already, and the inbox skips it.
 *
 * <p>What happens to a delivery that fails:
 * <ul>
 *   <li>not applicable ({@link DeadLetterException}: malformed, unknown type, too large, business rule, sequence
 *       conflict): copied to the dead-letter queue in the same JMS transaction, which then commits; on the first
 *       delivery, never retried;</li>
 *   <li>database unreachable: {@link TargetDatabaseUnavailableException}; the route retries in-process with backoff,
 *       the message stays unacknowledged and its delivery count is not raised;</li>
 *   <li>anything else (lock timeout, deadlock, an unexpected error): thrown, so the listener rolls the JMS session
 *       back and the broker redelivers after its redelivery delay; on delivery {@code maxDeliveryAttempts} the
 *       message is dead-lettered by the gateway with the last error and the attempt count instead.</li>
 * </ul>
 * Not guaranteed: anything the effect does outside the inbox's database (it may run again on a retry).
 */
public final class InboxConsumer implements Processor {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);
    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";

    private final InboxSettings settings;
    private final int maxDeliveryAttempts;
    private final InboundMessageReader reader;
    private final InboxGuard guard;
    private final DeadLetters deadLetters;
    private final List<InboxDeliveryHook> hooks;
    private final MeterRegistry meters;

    private final Counter applied;
    private final Counter duplicates;
    private final Counter parked;
    private final Counter released;
    private final Counter rolledBack;
    private final Counter unreachable;
    private final Timer transaction;
    private final Timer processing;
    private final Timer lag;
    private final AtomicLong failingSince = new AtomicLong();
    private final java.time.Clock clock;
    private final io.legacygateway.adapters.inbox.InboxStore store;
    private final org.springframework.transaction.support.TransactionTemplate storeTransaction;

    InboxConsumer(InboxSettings settings, int maxDeliveryAttempts, InboundMessageReader reader, InboxGuard guard,
                  DeadLetters deadLetters, List<InboxDeliveryHook> hooks, MeterRegistry meters, java.time.Clock clock,
                  io.legacygateway.adapters.inbox.InboxStore store,
                  org.springframework.transaction.support.TransactionTemplate storeTransaction) {
        this.clock = clock;
        this.store = store;
        this.storeTransaction = storeTransaction;
        this.settings = settings;
        this.maxDeliveryAttempts = maxDeliveryAttempts;
        this.reader = reader;
        this.guard = guard;
        this.deadLetters = deadLetters;
        this.hooks = List.copyOf(hooks);
        this.meters = meters;
        String c = settings.consumer();
        applied = Counter.builder("gateway.inbox.applied").description("Messages whose effect committed")
                .tag("consumer", c).register(meters);
        duplicates = Counter.builder("gateway.inbox.duplicates")
                .description("Deliveries skipped because the inbox row existed: the effect was applied before")
                .tag("consumer", c).register(meters);
        parked = Counter.builder("gateway.inbox.parked")
                .description("Sequence gate: messages stored until the gap before them is filled")
                .tag("consumer", c).register(meters);
        released = Counter.builder("gateway.inbox.released")
                .description("Sequence gate: parked messages applied once their turn came")
                .tag("consumer", c).register(meters);
        rolledBack = Counter.builder("gateway.inbox.rollbacks")
                .description("Deliveries returned to the broker unacknowledged (the JMS session rolled back or its"
                        + " commit failed), from any cause: each uses one of the message's delivery attempts")
                .tag("consumer", c).register(meters);
        unreachable = Counter.builder("gateway.inbox.database.unreachable")
                .description("Attempts that found the inbox database unreachable (retried in-process)")
                .tag("consumer", c).register(meters);
        transaction = Timer.builder("gateway.inbox.transaction")
                .description("The inbox database transaction of one delivery").tag("consumer", c).register(meters);
        processing = Timer.builder("gateway.inbox.processing")
                .description("One delivery handled to its outcome (applied, duplicate, parked or dead-lettered):"
                        + " validation, inbox transaction, dead-letter send").tag("consumer", c).register(meters);
        lag = Timer.builder("gateway.inbox.lag")
                .description("From the event's time (CloudEvents time) to its effect's commit").tag("consumer", c)
                .register(meters);
    }

    /** The consumer's inbox table (retention). */
    public io.legacygateway.adapters.inbox.InboxStore inboxStore() {
        return store;
    }

    /** A transaction of the consumer's datasource. */
    public org.springframework.transaction.support.TransactionTemplate inboxTransaction() {
        return storeTransaction;
    }

    public String name() {
        return settings.consumer();
    }

    public InboxSettings settings() {
        return settings;
    }

    /** The delivery on which a transiently failing message is dead-lettered. */
    public int maxDeliveryAttempts() {
        return maxDeliveryAttempts;
    }

    /** {@code gateway_inbox_rollbacks_total}, incremented by the listener container on every rollback. */
    Counter rollbacks() {
        return rolledBack;
    }

    /** The queue that receives this consumer's dead letters. */
    public String deadLetterQueue() {
        return deadLetters.deadLetterQueue();
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        JmsMessage in = exchange.getIn(JmsMessage.class);
        if (in == null || in.getJmsMessage() == null || in.getJmsSession() == null) {
            throw new IllegalStateException("inbox-consumer '" + name()
                    + "' must be fed by a transacted jms: endpoint");
        }
        Message message = in.getJmsMessage();
        Session session = in.getJmsSession();
        int delivery = deliveryCount(message);
        long started = System.nanoTime();
        try {
            InboundMessage inbound = reader.read(message);
            InboxGuard.Result result = transaction.record(() -> guard.apply(inbound));
            hooks.forEach(h -> h.afterDatabaseCommitBeforeAck(name(), inbound.envelope(), result.outcome()));
            done(inbound.envelope(), result, delivery);
            processing.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (DeadLetterException e) {
            deadLetter(session, message, e.reason(), e.getMessage(), e.getCause(), delivery);
            processing.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (TargetDatabaseUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            if (FailureClassifier.databaseUnreachable(e)) {
                unreachable(e);
                throw new TargetDatabaseUnavailableException("inbox database of '" + name() + "' unreachable: "
                        + FailureClassifier.describe(e), e);
            }
            if (delivery >= maxDeliveryAttempts) {
                deadLetter(session, message, DeadLetterReason.RETRIES_EXHAUSTED, "failed on delivery " + delivery
                        + " of " + maxDeliveryAttempts + ": " + FailureClassifier.describe(e), e, delivery);
                processing.record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
                return;
            }
            // counted by the listener container when it rolls the session back (InboxListenerContainers)
            log.warn("Inbox '{}': {} rolled back for redelivery by the broker (delivery {} of {}): {}", name(),
                    describe(message), delivery, maxDeliveryAttempts, FailureClassifier.describe(e));
            throw e;
        }
    }

    private void done(EventEnvelope envelope, InboxGuard.Result result, int delivery) {
        recovered();
        switch (result.outcome()) {
            case APPLIED -> {
                applied.increment(1 + result.released());
                if (envelope.time() != null) {
                    lag.record(java.time.Duration.between(envelope.time(), clock.instant()).abs());
                }
                released.increment(result.released());
                log.debug("Inbox '{}': applied {} {} of {}{}", name(), envelope.type(), envelope.id(),
                        envelope.subject(), result.released() == 0 ? "" : " and released " + result.released()
                                + " parked message(s)");
            }
            case DUPLICATE -> {
                duplicates.increment();
                log.info("Inbox '{}': {} {} of {} was applied before; skipped (duplicate, delivery {})", name(),
                        envelope.type(), envelope.id(), envelope.subject(), delivery);
            }
            case PARKED -> {
                parked.increment();
                log.info("Inbox '{}': {} {} of {} arrived ahead of its sequence; parked", name(), envelope.type(),
                        envelope.id(), envelope.subject());
            }
        }
    }

    private void deadLetter(Session session, Message message, DeadLetterReason reason, String detail,
                            Throwable cause, int delivery) throws JMSException {
        deadLetters.send(session, message, reason, detail, cause, delivery);
        Counter.builder("gateway.inbox.dead.letters").description("Messages moved to the dead-letter queue")
                .tag("consumer", name()).tag("reason", reason.name()).register(meters).increment();
        log.warn("Inbox '{}': {} moved to {} ({}, delivery {}): {}", name(), describe(message),
                deadLetters.deadLetterQueue(), reason, delivery, detail);
    }

    private void unreachable(RuntimeException e) {
        unreachable.increment();
        if (failingSince.compareAndSet(0, System.nanoTime())) {
            log.warn("Inbox '{}': database '{}' unreachable; the message stays unacknowledged and is retried here "
                    + "with backoff up to {} (no delivery attempt is used): {}", name(), settings.dataSource(),
                    DurationText.format(settings.maxBackoff()), FailureClassifier.describe(e));
        }
    }

    private void recovered() {
        long since = failingSince.getAndSet(0);
        if (since != 0) {
            log.info("Inbox '{}': database '{}' reachable again after {} s", name(), settings.dataSource(),
                    (System.nanoTime() - since) / 1_000_000_000L);
        }
    }

    private static int deliveryCount(Message message) {
        try {
            return message.propertyExists(DELIVERY_COUNT) ? message.getIntProperty(DELIVERY_COUNT) : 1;
        } catch (JMSException | RuntimeException e) {
            return 1;
        }
    }

    private static String describe(Message message) {
        try {
            // properties are the sender's, not validated: printable and short before they reach a log line
            String id = message.getStringProperty(io.legacygateway.envelope.MessageProperties.ID);
            String type = message.getStringProperty(io.legacygateway.envelope.MessageProperties.TYPE);
            String text = (type == null ? "message" : type) + " " + (id == null ? message.getJMSMessageID() : id);
            text = text.replaceAll("\\p{Cntrl}", "?");
            return text.length() <= 200 ? text : text.substring(0, 200) + "…";
        } catch (JMSException | RuntimeException e) {
            return "message";
        }
    }
}
