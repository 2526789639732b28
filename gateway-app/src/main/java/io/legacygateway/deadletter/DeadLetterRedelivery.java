package io.legacygateway.deadletter;

import io.legacygateway.config.GatewayProperties;
import io.legacygateway.operator.OperationAudit;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
 *
 * <p>The plan is made by {@link RedeliveryPlanner}, the moves by {@link DeadLetterMover}; this class takes the
 * snapshot, audits the run and reports it.
 */
public class DeadLetterRedelivery {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterRedelivery.class);

    private final DeadLetterBrowser browser;
    private final InboxLookup inboxes;
    private final OperationAudit audit;
    private final GatewayProperties.DeadLetters settings;
    private final ConnectionFactory connectionFactory;
    private final Clock clock;
    private final RedeliveryPlanner planner;
    private final DeadLetterMover mover;
    private volatile Runnable afterChange = () -> { };

    DeadLetterRedelivery(DeadLetterBrowser browser, InboxLookup inboxes, OperationAudit audit,
                         GatewayProperties properties, ConnectionFactory connectionFactory, MeterRegistry meters,
                         Clock clock, RedeliveryPace.Sleeper sleeper, List<DeadLetterRedeliveryHook> hooks) {
        this.browser = browser;
        this.inboxes = inboxes;
        this.audit = audit;
        this.settings = properties.deadLetters();
        this.connectionFactory = connectionFactory;
        this.clock = clock;
        this.planner = new RedeliveryPlanner(inboxes, settings, properties.retention().inbox());
        this.mover = new DeadLetterMover(browser.address(), inboxes, audit, meters, clock, sleeper,
                List.copyOf(hooks));
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
            List<PlannedRedelivery> plan = planner.plan(letters, request, DeadLetterBrowser.core(session), started);
            List<String> warnings = planner.warnings(plan, request, snapshot, letters);
            if (request.dryRun()) {
                RedeliveryReport report = report(request, rate, started, plan, warnings, null);
                audit.record("dlq.redeliver", target, selection, true, report.moved(), summary(report));
                log.info("Dead-letter redelivery DRY RUN by {}: {} ({})", actor, summary(report), selection);
                return report;
            }
            long toMove = plan.stream().filter(p -> p.outcome == RedeliveryOutcome.MOVED).count();
            audit.record("dlq.redeliver.start", target, selection, false, (int) toMove, "planned: "
                    + summary(report(request, rate, started, plan, warnings, null)));
            String error = mover.execute(session, plan, rate, actor);
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

    private RedeliveryReport report(RedeliveryRequest r, int rate, Instant started, List<PlannedRedelivery> plan,
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

    static List<String> truncated(DeadLetterBrowser.Snapshot snapshot) {
        return snapshot.truncated().entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    }
}
