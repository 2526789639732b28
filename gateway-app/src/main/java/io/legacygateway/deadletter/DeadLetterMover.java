package io.legacygateway.deadletter;

import io.legacygateway.adapters.Failures;
import io.legacygateway.broker.MessageCopies;
import io.legacygateway.deadletter.PlannedRedelivery.Target;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.operator.OperationAudit;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a redelivery plan on one transacted session, one dead letter per transaction (see
 * {@link DeadLetterRedelivery}): receive exactly that message, send its copy to the original queue (unless discarding
 * an applied one), commit. A failure rolls that one move back and stops the run; the entries after it are
 * {@link RedeliveryOutcome#NOT_ATTEMPTED}. Each entry's outcome and detail are set to what really happened.
 */
final class DeadLetterMover {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterMover.class);
    /** JMS message ids as the Artemis client makes them; anything else is never put into a selector. */
    private static final Pattern MESSAGE_ID = Pattern.compile("ID:[A-Za-z0-9._:-]{1,200}");
    private static final long RECEIVE_TIMEOUT_MS = 2000;
    /** Queue names that may appear in a selector literal as they are. */
    private static final Pattern SELECTOR_SAFE = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private final String deadLetterAddress;
    private final InboxLookup inboxes;
    private final OperationAudit audit;
    private final MeterRegistry meters;
    private final Clock clock;
    private final RedeliveryPace.Sleeper sleeper;
    private final List<DeadLetterRedeliveryHook> hooks;

    DeadLetterMover(String deadLetterAddress, InboxLookup inboxes, OperationAudit audit, MeterRegistry meters,
                    Clock clock, RedeliveryPace.Sleeper sleeper, List<DeadLetterRedeliveryHook> hooks) {
        this.deadLetterAddress = deadLetterAddress;
        this.inboxes = inboxes;
        this.audit = audit;
        this.meters = meters;
        this.clock = clock;
        this.sleeper = sleeper;
        this.hooks = hooks;
    }

    /** Moves the planned dead letters; returns the error that stopped the run, or {@code null}. */
    String execute(Session session, List<PlannedRedelivery> plan, int rate, String actor) {
        RedeliveryPace pace = new RedeliveryPace(clock, sleeper, rate);
        MessageProducer producer;
        try {
            producer = session.createProducer(null);
        } catch (JMSException e) {
            plan.stream().filter(PlannedRedelivery::toMove).forEach(p -> p.outcome = RedeliveryOutcome.NOT_ATTEMPTED);
            return "cannot create a producer: " + Failures.describe(e);
        }
        String error = null;
        for (PlannedRedelivery p : plan) {
            if (!p.toMove()) {
                continue;
            }
            if (error != null) {
                p.outcome = RedeliveryOutcome.NOT_ATTEMPTED;
                continue;
            }
            error = moveOne(session, producer, pace, p, actor);
        }
        try {
            producer.close();
        } catch (JMSException | RuntimeException e) {
            log.debug("Closing the redelivery producer: {}", e.toString());
        }
        return error;
    }

    /** Paces, releases and moves one entry; returns the error that stops the run, or {@code null}. */
    private String moveOne(Session session, MessageProducer producer, RedeliveryPace pace, PlannedRedelivery p,
                           String actor) {
        String id = p.letter.messageId();
        if (id == null || !MESSAGE_ID.matcher(id).matches()) {
            p.outcome = RedeliveryOutcome.FAILED;
            p.detail = "no usable JMS message id to take it by: " + id;
            return null;
        }
        try {
            if (p.outcome == RedeliveryOutcome.MOVED) {
                pace.awaitTurn();
                if (p.release) {
                    release(p, actor);
                }
            }
            p.outcome = move(session, producer, p, actor);
            if (p.outcome == RedeliveryOutcome.MOVED) {
                Counter.builder("gateway.dlq.redelivered")
                        .description("Dead letters moved back to their original queue")
                        .tag("queue", p.letter.queue()).register(meters).increment();
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.outcome = RedeliveryOutcome.NOT_ATTEMPTED;
            return "interrupted";
        } catch (JMSException | RuntimeException e) {
            p.outcome = RedeliveryOutcome.FAILED;
            p.detail = (p.released ? "inbox row released, but " : "") + (outcomeUnknown(e)
                    ? "the connection failed during the commit, its outcome is unknown: run the redelivery again"
                    + " (a moved dead letter is gone from " + p.letter.queue() + ", one that was not is moved)"
                    : "rolled back, still on " + p.letter.queue()) + ": " + Failures.describe(e);
            log.warn("Dead-letter redelivery: moving {} from {} failed and was rolled back; the run stops: {}",
                    id, p.letter.queue(), Failures.describe(e));
            return "stopped at " + id + ": " + Failures.describe(e);
        }
    }

    private void release(PlannedRedelivery p, String actor) {
        InboxLookup.Inbox inbox = inboxes.inboxFor(p.letter).orElseThrow(() -> new IllegalStateException(
                "inbox of " + p.letter.inbox().consumer() + " is no longer known"));
        p.released = inboxes.release(inbox, p.letter.eventId(), () -> audit.record("dlq.release-inbox",
                inbox.consumer() + "@" + inbox.dataSource(), p.letter.eventId(), false, 1, "inbox row of event "
                        + p.letter.eventId() + " deleted by " + actor + " to redeliver dead letter "
                        + p.letter.messageId() + " from " + p.letter.queue() + ": its effect is applied again"));
        if (!p.released) {
            p.detail = "applied before, but its inbox row was gone when released";
        }
    }

    /** One dead letter in one transaction: take it, send its copy (unless discarding), commit. */
    private RedeliveryOutcome move(Session session, MessageProducer producer, PlannedRedelivery p, String actor)
            throws JMSException {
        DeadLetter d = p.letter;
        // a message the broker dead-lettered from several subscription queues of one topic keeps one JMS message id
        // in each copy: the original queue tells them apart
        String selector = "JMSMessageID = '" + d.messageId() + "'" + (d.originalQueue() != null
                && SELECTOR_SAFE.matcher(d.originalQueue()).matches() ? " AND " + DeadLetterBrowser.ORIGINAL_QUEUE
                + " = '" + d.originalQueue() + "'" : "");
        MessageConsumer consumer = session.createConsumer(session.createQueue(deadLetterAddress + "::" + d.queue()),
                selector);
        try {
            Message m = consumer.receive(RECEIVE_TIMEOUT_MS);
            if (m == null) {
                p.detail = "no longer on " + d.queue();
                return RedeliveryOutcome.GONE;
            }
            if (!d.messageId().equals(m.getJMSMessageID()) || !Objects.equals(d.originalQueue(),
                    DeadLetterBrowser.string(m, DeadLetterBrowser.ORIGINAL_QUEUE))) {
                throw new IllegalStateException("selector returned " + m.getJMSMessageID() + " of "
                        + DeadLetterBrowser.string(m, DeadLetterBrowser.ORIGINAL_QUEUE) + " for " + d.messageId()
                        + " of " + d.originalQueue());
            }
            if (p.outcome == RedeliveryOutcome.MOVED) {
                producer.send(destination(session, p.target), copy(session, m, d, actor), DeliveryMode.PERSISTENT,
                        m.getJMSPriority(), 0L);
            }
            hooks.forEach(h -> h.afterSendBeforeCommit(d));
            session.commit();
            return p.outcome;
        } catch (JMSException | RuntimeException e) {
            try {
                session.rollback();
            } catch (JMSException | RuntimeException ignored) {
                // the broker is gone: it rolls the transaction back by itself
            }
            throw e;
        } finally {
            try {
                consumer.close();
            } catch (JMSException | RuntimeException e) {
                // after the commit the move is done whatever closing says
                log.debug("Closing the dead-letter consumer: {}", e.toString());
            }
        }
    }

    private static Destination destination(Session session, Target t) throws JMSException {
        return t.routingType() == RoutingType.MULTICAST ? session.createTopic(t.fqqn()) : session.createQueue(t.fqqn());
    }

    private Message copy(Session session, Message original, DeadLetter d, String actor) throws JMSException {
        Message copy = MessageCopies.withBody(session, original);
        MessageCopies.copyHeaders(original, copy, name -> name.startsWith("_AMQ") || name.startsWith("__AMQ")
                || name.startsWith("JMSX") || name.startsWith(DeadLetterBrowser.DLQ_PREFIX)
                || name.equals(DeadLetterBrowser.REDELIVERED_AT) || name.equals(DeadLetterBrowser.REDELIVERED_BY)
                || name.equals(DeadLetterBrowser.REDELIVERY_COUNT));
        if (d.groupId() != null) {
            copy.setStringProperty(EnvelopeMessages.GROUP_ID, d.groupId());
        }
        copy.setStringProperty(EnvelopeMessages.DUPLICATE_ID,
                (d.eventId() != null ? d.eventId() : d.messageId()) + "|redelivery:" + d.messageId() + "|"
                        + d.originalQueue());
        copy.setStringProperty(DeadLetterBrowser.REDELIVERED_AT, clock.instant().toString());
        copy.setStringProperty(DeadLetterBrowser.REDELIVERED_BY, actor);
        copy.setIntProperty(DeadLetterBrowser.REDELIVERY_COUNT, d.redeliveryCount() + 1);
        return copy;
    }

    /** Artemis's failover answer to a commit whose result it cannot know. */
    private static boolean outcomeUnknown(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getClass().getSimpleName().contains("OutcomeUnknown")) {
                return true;
            }
        }
        return false;
    }
}
