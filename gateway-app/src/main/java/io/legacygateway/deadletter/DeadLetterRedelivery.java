package io.legacygateway.deadletter;

import io.legacygateway.adapters.Failures;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.MessageCopies;
import io.legacygateway.operator.OperationAudit;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists dead letters and moves them back to where they came from.
 *
 * <p><b>Listing</b> browses the queues of the dead-letter address ({@code gateway.dead-letters.address}); it never
 * consumes a message or changes its delivery count.
 *
 * <p><b>Redelivery</b> first takes a snapshot of the selection (browsing), decides each dead letter's outcome
 * ({@link RedeliveryOutcome}: inbox policy, replay horizon, original queue), then, unless it is a dry run, moves the
 * dead letters one by one in queue order, paced to the requested rate. Each move is ONE transacted JMS session:
 * receive exactly that message from its dead-letter queue (selector on its JMS message id), send its copy to the
 * original queue, commit. A failure or crash before the commit rolls both back: the dead letter stays on its queue and
 * no copy exists; after the commit the copy is on the original queue and the dead letter is gone. A message is
 * therefore never lost and never doubled by a move. Dead letters that arrive after the snapshot are not touched; ones
 * that disappear before their turn are reported {@link RedeliveryOutcome#GONE}.
 *
 * <p><b>The copy</b> keeps the body byte for byte, every application property ({@code ce_*} included), the event id,
 * {@code JMSXGroupID}, correlation id, type and priority; it drops the dead-letter properties ({@code gw_dlq_*},
 * {@code _AMQ_ORIG_*}) and adds {@code gw_redelivered_at}, {@code gw_redelivered_by} and {@code gw_redelivery_count}.
 * It gets a NEW {@code _AMQ_DUPL_ID}, {@code <event id>|redelivery:<dead letter's JMS message id>|<original queue>}:
 * the event id itself is in the original address's duplicate-id cache (the relay set it on the first publish), and the
 * broker would drop the replay, or refuse its transaction. The new id is unique per dead letter (the queue tells apart
 * the copies the broker dead-lettered from several subscriptions of one topic, which keep one JMS message id), so the
 * broker still stores at most one copy of one dead letter (should a client ever resend a commit on failover), and the
 * consumer's inbox, which keys on the event id, remains what decides whether the effect is applied again.
 *
 * <p><b>Audit</b>: a dry run writes one {@code dlq.redeliver} row (dry_run true); a real run writes
 * {@code dlq.redeliver.start} before it changes anything (so a run whose audit cannot be written does nothing) and
 * {@code dlq.redeliver} with the counts at the end; every released inbox row writes {@code dlq.release-inbox}, in the
 * release's own database transaction.
 */
public class DeadLetterRedelivery {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterRedelivery.class);
    /** JMS message ids as the Artemis client makes them; anything else is never put into a selector. */
    private static final Pattern MESSAGE_ID = Pattern.compile("ID:[A-Za-z0-9._:-]{1,200}");
    private static final long RECEIVE_TIMEOUT_MS = 2000;
    /** Queue names that may appear in a selector literal as they are. */
    private static final Pattern SELECTOR_SAFE = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private final DeadLetterBrowser browser;
    private final InboxLookup inboxes;
    private final OperationAudit audit;
    private final GatewayProperties.DeadLetters settings;
    private final Duration inboxRetention;
    private final ConnectionFactory connectionFactory;
    private final MeterRegistry meters;
    private final Clock clock;
    private final RedeliveryPace.Sleeper sleeper;
    private final List<DeadLetterRedeliveryHook> hooks;
    private volatile Runnable afterChange = () -> { };

    DeadLetterRedelivery(DeadLetterBrowser browser, InboxLookup inboxes, OperationAudit audit,
                         GatewayProperties properties, ConnectionFactory connectionFactory, MeterRegistry meters,
                         Clock clock, RedeliveryPace.Sleeper sleeper, List<DeadLetterRedeliveryHook> hooks) {
        this.browser = browser;
        this.inboxes = inboxes;
        this.audit = audit;
        this.settings = properties.deadLetters();
        this.inboxRetention = properties.retention().inbox();
        this.connectionFactory = connectionFactory;
        this.meters = meters;
        this.clock = clock;
        this.sleeper = sleeper;
        this.hooks = List.copyOf(hooks);
    }

    /** Runs after every real redelivery (the depth gauge resamples). */
    void afterChange(Runnable action) {
        this.afterChange = action;
    }

    /** The queues of the dead-letter address with their depths. */
    public List<DeadLetterQueue> queues() throws JMSException {
        return browser.queues();
    }

    /**
     * Every dead-letter queue and its dead letters grouped by queue, reason class, reason pattern
     * ({@link DeadLetterGroup#pattern}) and event type.
     */
    public DeadLetterOverview overview() throws JMSException {
        DeadLetterBrowser.Snapshot snapshot = browser.snapshot(DeadLetterFilter.ALL, false);
        List<DeadLetter> letters = inboxes.withStatus(snapshot.all());
        record Key(String queue, String reasonClass, String reason, String eventType) {
        }
        Map<Key, List<DeadLetter>> grouped = letters.stream().collect(Collectors.groupingBy(
                d -> new Key(d.queue(), d.reasonClass(), DeadLetterGroup.pattern(d.reason()), d.eventType()),
                LinkedHashMap::new, Collectors.toList()));
        Comparator<String> nullsFirst = Comparator.nullsFirst(Comparator.naturalOrder());
        List<DeadLetterGroup> groups = grouped.entrySet().stream().map(e -> {
            List<DeadLetter> g = e.getValue();
            List<DeadLetter> byTime = g.stream().filter(d -> d.deadLetteredAt() != null)
                    .sorted(Comparator.comparing(DeadLetter::deadLetteredAt)).toList();
            return new DeadLetterGroup(e.getKey().queue(), e.getKey().reasonClass(), e.getKey().reason(),
                    e.getKey().eventType(), g.size(), (int) g.stream().filter(d -> d.inbox().applied()).count(),
                    byTime.isEmpty() ? null : byTime.get(0).deadLetteredAt(),
                    byTime.isEmpty() ? null : byTime.get(byTime.size() - 1).deadLetteredAt(),
                    (byTime.isEmpty() ? g.get(0) : byTime.get(0)).reason());
        }).sorted(Comparator.comparing(DeadLetterGroup::queue).thenComparing(DeadLetterGroup::reasonClass, nullsFirst)
                .thenComparing(DeadLetterGroup::eventType, nullsFirst).thenComparing(DeadLetterGroup::reason,
                        nullsFirst)).toList();
        return new DeadLetterOverview(browser.address(), snapshot.queues(), groups, letters.size(),
                truncated(snapshot));
    }

    /**
     * The dead letters a filter selects, one page of them, each with its inbox status.
     *
     * @param withBody include the bodies
     */
    public DeadLetterPage messages(DeadLetterFilter filter, int offset, int limit, boolean withBody)
            throws JMSException {
        if (offset < 0) {
            throw new IllegalArgumentException("offset: " + offset + " is negative");
        }
        if (limit < 1 || limit > 1000) {
            throw new IllegalArgumentException("limit: " + limit + " is outside 1-1000");
        }
        DeadLetterBrowser.Snapshot snapshot = browser.snapshot(filter, withBody);
        List<DeadLetter> all = snapshot.all();
        List<DeadLetter> page = all.subList(Math.min(offset, all.size()), Math.min(all.size(), offset + limit));
        return new DeadLetterPage(all.size(), offset, limit, truncated(snapshot), inboxes.withStatus(page));
    }

    /** Redelivers (or, in a dry run, reports) the selected dead letters; see the class comment. */
    public RedeliveryReport redeliver(RedeliveryRequest request) throws JMSException {
        int rate = request.ratePerSecond() != null ? request.ratePerSecond() : settings.defaultRatePerSecond();
        Instant started = clock.instant();
        String selection = request.describe(rate);
        String target = request.filter().queue() == null ? "all queues on " + browser.address()
                : request.filter().queue();
        String actor = OperationAudit.actor();

        DeadLetterBrowser.Snapshot snapshot = browser.snapshot(request.filter(), false);
        List<DeadLetter> letters = inboxes.withStatus(snapshot.all());
        Connection connection = connectionFactory.createConnection();
        try {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            connection.start();
            List<Plan> plan = plan(letters, request, DeadLetterBrowser.core(session), started);
            List<String> warnings = warnings(plan, request, snapshot, letters);
            if (request.dryRun()) {
                RedeliveryReport report = report(request, rate, started, plan, warnings, null);
                audit.record("dlq.redeliver", target, selection, true, report.moved(), summary(report));
                log.info("Dead-letter redelivery DRY RUN by {}: {} ({})", actor, summary(report), selection);
                return report;
            }
            long toMove = plan.stream().filter(p -> p.outcome == RedeliveryOutcome.MOVED).count();
            audit.record("dlq.redeliver.start", target, selection, false, (int) toMove, "planned: "
                    + summary(report(request, rate, started, plan, warnings, null)));
            String error = execute(session, plan, rate, actor);
            RedeliveryReport report = report(request, rate, started, plan, warnings, error);
            audit.record("dlq.redeliver", target, selection, false, report.moved(), summary(report));
            log.info("Dead-letter redelivery by {}: {} ({})", actor, summary(report), selection);
            return report;
        } finally {
            try {
                connection.close();
            } catch (JMSException | RuntimeException e) {
                // a broker that died during the run: nothing is left to close on its side
                log.debug("Closing the redelivery connection: {}", e.toString());
            }
            if (!request.dryRun()) {
                afterChange.run();
            }
        }
    }

    /** One selected dead letter and what happens to it. */
    private static final class Plan {
        final DeadLetter letter;
        RedeliveryOutcome outcome;
        final boolean release;
        final Target target;
        String detail;
        boolean released;
        boolean forced;

        Plan(DeadLetter letter, RedeliveryOutcome outcome, boolean release, Target target, String detail) {
            this.letter = letter;
            this.outcome = outcome;
            this.release = release;
            this.target = target;
            this.detail = detail;
        }
    }

    /** Where a copy goes: the original queue, by its fully qualified name. */
    private record Target(String address, String queue, RoutingType routingType) {
        String fqqn() {
            return address + "::" + queue;
        }
    }

    private List<Plan> plan(List<DeadLetter> letters, RedeliveryRequest request, ClientSession core, Instant now)
            throws JMSException {
        Instant horizon = now.minus(settings.replayHorizon());
        Map<String, Optional<Target>> targets = new HashMap<>();
        List<Plan> plan = new ArrayList<>();
        for (DeadLetter d : letters) {
            boolean applied = d.inbox().applied();
            Optional<Target> t = d.originalAddress() == null ? Optional.empty()
                    : targets.computeIfAbsent(d.originalAddress() + "::" + d.originalQueue(), k -> target(core, d));
            Target target = t.orElse(null);
            if (d.originalAddress() == null) {
                plan.add(new Plan(d, RedeliveryOutcome.REFUSED_NO_ORIGINAL_QUEUE, false, null,
                        "no _AMQ_ORIG_ADDRESS: the original address is not known"));
            } else if (applied && request.inboxPolicy() == InboxPolicy.SKIP_APPLIED) {
                plan.add(new Plan(d, request.discardApplied() ? RedeliveryOutcome.DISCARDED_APPLIED
                        : RedeliveryOutcome.SKIPPED_APPLIED, false, target, "applied already by "
                        + d.inbox().consumer()));
            } else if (applied && request.inboxPolicy() == InboxPolicy.RELEASE_INBOX_AND_REDELIVER
                    && inboxes.inboxFor(d).map(InboxLookup.Inbox::gated).orElse(false)) {
                plan.add(new Plan(d, RedeliveryOutcome.REFUSED_SEQUENCE_GATE, false, target, "consumer "
                        + d.inbox().consumer() + " has the sequence gate: a replay of an applied sequence is a "
                        + "sequence conflict"));
            } else if (!request.force() && (d.deadLetteredAt() == null || d.deadLetteredAt().isBefore(horizon))) {
                plan.add(new Plan(d, RedeliveryOutcome.REFUSED_OLDER_THAN_HORIZON, false, target,
                        d.deadLetteredAt() == null ? "no dead-letter time known" : "dead-lettered at "
                                + d.deadLetteredAt() + ", before the replay horizon " + settings.replayHorizon()));
            } else if (target == null) {
                plan.add(new Plan(d, RedeliveryOutcome.REFUSED_NO_ORIGINAL_QUEUE, false, null, "original queue "
                        + d.originalAddress() + "::" + (d.originalQueue() == null ? d.originalAddress()
                        : d.originalQueue()) + " does not exist"));
            } else {
                boolean release = applied && request.inboxPolicy() == InboxPolicy.RELEASE_INBOX_AND_REDELIVER;
                String detail = null;
                if (applied && request.inboxPolicy() == InboxPolicy.REDELIVER_ALL) {
                    detail = "applied already: the inbox of " + d.inbox().consumer() + " will skip it as a duplicate";
                } else if (release) {
                    detail = "applied already: inbox row released first, the effect runs again";
                }
                boolean old = d.deadLetteredAt() == null || d.deadLetteredAt().isBefore(horizon);
                if (old) {
                    detail = (detail == null ? "" : detail + "; ") + "older than the replay horizon, forced";
                }
                Plan p = new Plan(d, RedeliveryOutcome.MOVED, release, target, detail);
                p.forced = old;
                plan.add(p);
            }
        }
        return plan;
    }

    /** The original queue, if it exists, with its routing type. */
    private static Optional<Target> target(ClientSession core, DeadLetter d) {
        String queue = d.originalQueue() == null ? d.originalAddress() : d.originalQueue();
        try {
            ClientSession.QueueQuery q = core.queueQuery(SimpleString.of(queue));
            if (!q.isExists() || q.getAddress() == null || !q.getAddress().toString().equals(d.originalAddress())) {
                return Optional.empty();
            }
            return Optional.of(new Target(d.originalAddress(), queue, q.getRoutingType()));
        } catch (ActiveMQException e) {
            throw new IllegalStateException("cannot query queue " + queue + ": " + e.getMessage(), e);
        }
    }

    /** Moves the planned dead letters; returns the error that stopped the run, or {@code null}. */
    private String execute(Session session, List<Plan> plan, int rate, String actor) {
        RedeliveryPace pace = new RedeliveryPace(clock, sleeper, rate);
        MessageProducer producer;
        try {
            producer = session.createProducer(null);
        } catch (JMSException e) {
            plan.stream().filter(p -> p.outcome == RedeliveryOutcome.MOVED
                    || p.outcome == RedeliveryOutcome.DISCARDED_APPLIED).forEach(p -> p.outcome =
                    RedeliveryOutcome.NOT_ATTEMPTED);
            return "cannot create a producer: " + Failures.describe(e);
        }
        String error = null;
        for (Plan p : plan) {
            boolean toDo = p.outcome == RedeliveryOutcome.MOVED || p.outcome == RedeliveryOutcome.DISCARDED_APPLIED;
            if (!toDo) {
                continue;
            }
            if (error != null) {
                p.outcome = RedeliveryOutcome.NOT_ATTEMPTED;
                continue;
            }
            String id = p.letter.messageId();
            if (id == null || !MESSAGE_ID.matcher(id).matches()) {
                p.outcome = RedeliveryOutcome.FAILED;
                p.detail = "no usable JMS message id to take it by: " + id;
                continue;
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
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.outcome = RedeliveryOutcome.NOT_ATTEMPTED;
                error = "interrupted";
            } catch (JMSException | RuntimeException e) {
                p.outcome = RedeliveryOutcome.FAILED;
                p.detail = (p.released ? "inbox row released, but " : "") + (outcomeUnknown(e)
                        ? "the connection failed during the commit, its outcome is unknown: run the redelivery again"
                        + " (a moved dead letter is gone from " + p.letter.queue() + ", one that was not is moved)"
                        : "rolled back, still on " + p.letter.queue()) + ": " + Failures.describe(e);
                error = "stopped at " + id + ": " + Failures.describe(e);
                log.warn("Dead-letter redelivery: moving {} from {} failed and was rolled back; the run stops: {}",
                        id, p.letter.queue(), Failures.describe(e));
            }
        }
        try {
            producer.close();
        } catch (JMSException | RuntimeException e) {
            log.debug("Closing the redelivery producer: {}", e.toString());
        }
        return error;
    }

    private void release(Plan p, String actor) {
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
    private RedeliveryOutcome move(Session session, MessageProducer producer, Plan p, String actor)
            throws JMSException {
        DeadLetter d = p.letter;
        // a message the broker dead-lettered from several subscription queues of one topic keeps one JMS message id
        // in each copy: the original queue tells them apart
        String selector = "JMSMessageID = '" + d.messageId() + "'" + (d.originalQueue() != null
                && SELECTOR_SAFE.matcher(d.originalQueue()).matches() ? " AND " + DeadLetterBrowser.ORIGINAL_QUEUE
                + " = '" + d.originalQueue() + "'" : "");
        MessageConsumer consumer = session.createConsumer(session.createQueue(browser.address() + "::" + d.queue()),
                selector);
        try {
            Message m = consumer.receive(RECEIVE_TIMEOUT_MS);
            if (m == null) {
                p.detail = "no longer on " + d.queue();
                return RedeliveryOutcome.GONE;
            }
            if (!d.messageId().equals(m.getJMSMessageID()) || !java.util.Objects.equals(d.originalQueue(),
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

    private List<String> warnings(List<Plan> plan, RedeliveryRequest request, DeadLetterBrowser.Snapshot snapshot,
                                  List<DeadLetter> letters) {
        List<String> warnings = new ArrayList<>();
        long refusedOld = plan.stream().filter(p -> p.outcome == RedeliveryOutcome.REFUSED_OLDER_THAN_HORIZON).count();
        if (refusedOld > 0) {
            warnings.add(refusedOld + " dead letter(s) are older than the replay horizon ("
                    + settings.replayHorizon() + ", gateway.dead-letters.replay-horizon) and are not redelivered: "
                    + "their inbox rows may be gone after inbox retention (gateway.retention.inbox = " + inboxRetention
                    + "), so a replay could apply an effect a second time. Set force to redeliver them anyway.");
        }
        long forced = plan.stream().filter(p -> p.outcome == RedeliveryOutcome.MOVED && p.forced).count();
        if (forced > 0) {
            warnings.add(forced + " dead letter(s) older than the replay horizon (" + settings.replayHorizon()
                    + ") are redelivered because force is set: inbox retention (" + inboxRetention + ") may have "
                    + "deleted the inbox rows that would recognise them, so an effect applied before may be applied "
                    + "again.");
        }
        long released = plan.stream().filter(p -> p.release).count();
        if (released > 0) {
            warnings.add(released + " applied dead letter(s) get their inbox rows deleted (RELEASE_INBOX_AND_REDELIVER):"
                    + " their effects are applied a second time.");
        }
        long unknown = letters.stream().filter(d -> d.inbox().state() == InboxState.UNAVAILABLE).count();
        if (unknown > 0) {
            warnings.add(unknown + " dead letter(s) have an inbox that could not be read; they are treated as not "
                    + "applied (the consumer's inbox still skips duplicates when they arrive).");
        }
        List<String> truncated = truncated(snapshot);
        if (!truncated.isEmpty()) {
            warnings.add("only the first " + settings.browseLimit() + " messages of " + truncated + " were examined "
                    + "(gateway.dead-letters.browse-limit); run again for the rest.");
        }
        if (!request.ids().isEmpty()) {
            Set<String> missing = new LinkedHashSet<>(request.ids());
            letters.forEach(d -> {
                missing.remove(d.messageId());
                missing.remove(d.eventId());
            });
            if (!missing.isEmpty()) {
                warnings.add("not found among the selected dead letters: " + missing);
            }
        }
        return warnings;
    }

    private RedeliveryReport report(RedeliveryRequest r, int rate, Instant started, List<Plan> plan,
                                    List<String> warnings, String error) {
        Map<RedeliveryOutcome, Integer> counts = new EnumMap<>(RedeliveryOutcome.class);
        plan.forEach(p -> counts.merge(p.outcome, 1, Integer::sum));
        List<RedeliveryReport.Item> items = plan.stream().map(p -> new RedeliveryReport.Item(p.letter.messageId(),
                p.letter.eventId(), p.letter.queue(), p.target == null ? null : p.target.fqqn(), p.letter.inbox(),
                p.outcome, r.dryRun() ? p.release : p.released, p.detail)).toList();
        int refused = counts.getOrDefault(RedeliveryOutcome.REFUSED_OLDER_THAN_HORIZON, 0)
                + counts.getOrDefault(RedeliveryOutcome.REFUSED_NO_ORIGINAL_QUEUE, 0)
                + counts.getOrDefault(RedeliveryOutcome.REFUSED_SEQUENCE_GATE, 0);
        int released = (int) plan.stream().filter(p -> r.dryRun() ? p.release : p.released).count();
        return new RedeliveryReport(r.dryRun(), r.describe(rate), r.inboxPolicy(), r.force(), r.discardApplied(), rate,
                started, clock.instant(), plan.size(), counts.getOrDefault(RedeliveryOutcome.MOVED, 0),
                counts.getOrDefault(RedeliveryOutcome.SKIPPED_APPLIED, 0),
                counts.getOrDefault(RedeliveryOutcome.DISCARDED_APPLIED, 0), released, refused,
                counts.getOrDefault(RedeliveryOutcome.GONE, 0), counts.getOrDefault(RedeliveryOutcome.FAILED, 0),
                counts.getOrDefault(RedeliveryOutcome.NOT_ATTEMPTED, 0), warnings, error, items);
    }

    static String summary(RedeliveryReport r) {
        return "selected " + r.selected() + ": " + (r.dryRun() ? "would move " : "moved ") + r.moved()
                + ", skipped (applied) " + r.skippedApplied() + ", discarded (applied) " + r.discarded()
                + ", inbox rows released " + r.released() + ", refused " + r.refused() + ", gone " + r.gone()
                + ", failed " + r.failed() + ", not attempted " + r.notAttempted()
                + (r.error() == null ? "" : "; stopped: " + r.error());
    }

    private static List<String> truncated(DeadLetterBrowser.Snapshot snapshot) {
        return snapshot.truncated().entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
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
