package io.legacygateway.deadletter;

import io.legacygateway.config.GatewayProperties;
import io.legacygateway.deadletter.PlannedRedelivery.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;

/**
 * Decides each selected dead letter's outcome before anything moves: inbox policy, replay horizon and the original
 * queue (which must still exist on the original address). It changes nothing, on the broker or in an inbox; a dry run
 * reports exactly this plan.
 */
final class RedeliveryPlanner {

    private final InboxLookup inboxes;
    private final GatewayProperties.DeadLetters settings;
    private final Duration inboxRetention;

    RedeliveryPlanner(InboxLookup inboxes, GatewayProperties.DeadLetters settings, Duration inboxRetention) {
        this.inboxes = inboxes;
        this.settings = settings;
        this.inboxRetention = inboxRetention;
    }

    /** One entry per dead letter, in their order; {@code core} resolves the original queues. */
    List<PlannedRedelivery> plan(List<DeadLetter> letters, RedeliveryRequest request, ClientSession core,
                                 Instant now) {
        Instant horizon = now.minus(settings.replayHorizon());
        Map<String, Optional<Target>> targets = new HashMap<>();
        List<PlannedRedelivery> plan = new ArrayList<>();
        for (DeadLetter d : letters) {
            Target target = d.originalAddress() == null ? null : targets.computeIfAbsent(
                    d.originalAddress() + "::" + d.originalQueue(), k -> target(core, d)).orElse(null);
            plan.add(decide(d, target, request, horizon));
        }
        return plan;
    }

    private PlannedRedelivery decide(DeadLetter d, Target target, RedeliveryRequest request, Instant horizon) {
        boolean applied = d.inbox().applied();
        if (d.originalAddress() == null) {
            return new PlannedRedelivery(d, RedeliveryOutcome.REFUSED_NO_ORIGINAL_QUEUE, false, null,
                    "no _AMQ_ORIG_ADDRESS: the original address is not known");
        } else if (applied && request.inboxPolicy() == InboxPolicy.SKIP_APPLIED) {
            return new PlannedRedelivery(d, request.discardApplied() ? RedeliveryOutcome.DISCARDED_APPLIED
                    : RedeliveryOutcome.SKIPPED_APPLIED, false, target, "applied already by " + d.inbox().consumer());
        } else if (applied && request.inboxPolicy() == InboxPolicy.RELEASE_INBOX_AND_REDELIVER
                && inboxes.inboxFor(d).map(InboxLookup.Inbox::gated).orElse(false)) {
            return new PlannedRedelivery(d, RedeliveryOutcome.REFUSED_SEQUENCE_GATE, false, target, "consumer "
                    + d.inbox().consumer() + " has the sequence gate: a replay of an applied sequence is a "
                    + "sequence conflict");
        } else if (!request.force() && olderThan(d, horizon)) {
            return new PlannedRedelivery(d, RedeliveryOutcome.REFUSED_OLDER_THAN_HORIZON, false, target,
                    d.deadLetteredAt() == null ? "no dead-letter time known" : "dead-lettered at "
                            + d.deadLetteredAt() + ", before the replay horizon " + settings.replayHorizon());
        } else if (target == null) {
            return new PlannedRedelivery(d, RedeliveryOutcome.REFUSED_NO_ORIGINAL_QUEUE, false, null, "original queue "
                    + d.originalAddress() + "::" + (d.originalQueue() == null ? d.originalAddress()
                    : d.originalQueue()) + " does not exist");
        }
        return moved(d, target, request, horizon);
    }

    private static PlannedRedelivery moved(DeadLetter d, Target target, RedeliveryRequest request, Instant horizon) {
        boolean applied = d.inbox().applied();
        boolean release = applied && request.inboxPolicy() == InboxPolicy.RELEASE_INBOX_AND_REDELIVER;
        String detail = null;
        if (applied && request.inboxPolicy() == InboxPolicy.REDELIVER_ALL) {
            detail = "applied already: the inbox of " + d.inbox().consumer() + " will skip it as a duplicate";
        } else if (release) {
            detail = "applied already: inbox row released first, the effect runs again";
        }
        boolean old = olderThan(d, horizon);
        if (old) {
            detail = (detail == null ? "" : detail + "; ") + "older than the replay horizon, forced";
        }
        PlannedRedelivery p = new PlannedRedelivery(d, RedeliveryOutcome.MOVED, release, target, detail);
        p.forced = old;
        return p;
    }

    private static boolean olderThan(DeadLetter d, Instant horizon) {
        return d.deadLetteredAt() == null || d.deadLetteredAt().isBefore(horizon);
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

    /** What the operator must know about a plan before (or after) it runs. */
    List<String> warnings(List<PlannedRedelivery> plan, RedeliveryRequest request, DeadLetterBrowser.Snapshot snapshot,
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
            warnings.add(released + " applied dead letter(s) get their inbox rows deleted "
                    + "(RELEASE_INBOX_AND_REDELIVER): their effects are applied a second time.");
        }
        long unknown = letters.stream().filter(d -> d.inbox().state() == InboxState.UNAVAILABLE).count();
        if (unknown > 0) {
            warnings.add(unknown + " dead letter(s) have an inbox that could not be read; they are treated as not "
                    + "applied (the consumer's inbox still skips duplicates when they arrive).");
        }
        List<String> truncated = DeadLetterRedelivery.truncated(snapshot);
        if (!truncated.isEmpty()) {
            warnings.add("only the first " + settings.browseLimit() + " messages of " + truncated + " were examined "
                    + "(gateway.dead-letters.browse-limit); run again for the rest.");
        }
        missing(request, letters).ifPresent(warnings::add);
        return warnings;
    }

    private static Optional<String> missing(RedeliveryRequest request, List<DeadLetter> letters) {
        Set<String> missing = new LinkedHashSet<>(request.ids());
        letters.forEach(d -> {
            missing.remove(d.messageId());
            missing.remove(d.eventId());
        });
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("not found among the selected dead letters: " + missing);
    }
}
