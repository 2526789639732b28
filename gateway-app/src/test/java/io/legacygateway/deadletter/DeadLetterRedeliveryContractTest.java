package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.legacygateway.testsupport.StandaloneBroker;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Dead-letter listing and redelivery against the standalone broker (booted with artemis-config/broker.xml) and a real
 * inbox database (one subclass per database): dead letters made by a real inbox consumer are listed grouped with their
 * reasons; a dry run moves nothing and is audited; a filtered redelivery moves exactly the selected messages, which
 * the fixed consumer applies once; the pace is counted, not timed; each inbox policy does what it says; dead letters
 * older than the replay horizon are refused unless forced.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "gateway.dead-letters.depth-interval=200ms",
        "gateway.dead-letters.default-rate-per-second=20"})
@ActiveProfiles("test")
abstract class DeadLetterRedeliveryContractTest extends DeadLetterTestSupport {

    @DynamicPropertySource
    static void targetPoolAndBroker(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
        StandaloneBroker.register(registry);
    }

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return StandaloneArtemis.shared().adminConnectionFactory();
    }

    @Test
    void poisonMessagesDeadLetteredByARealInboxConsumerAreListedGroupedWithTheirReasons() throws Exception {
        String queue = unique("it.dlq.list");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        Instant first = clock.instant();
        EventEnvelope zed1 = order("OrderCreated", "zed", "5");
        EventEnvelope zed2 = order("OrderCreated", "zed", "7");
        send(queue, zed1, zed2);
        awaitDeadLetters(queue, 2);
        clock.advance(Duration.ofMinutes(1));
        EventEnvelope shipped = order("OrderShipped", "alice", "1");
        EventEnvelope healthy = order("OrderCreated", "alice", "3");
        send(queue, shipped);
        sendRaw(queue, List.of("{\"specversion\":\"1.0\",\"id\":"));
        send(queue, healthy);
        awaitDeadLetters(queue, 4);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows(healthy.id()) == 1);

        DeadLetterOverview overview = redelivery.overview();
        String dlq = deadLetterQueue(queue);
        assertThat(overview.address()).isEqualTo("DLA");
        assertThat(overview.queues()).filteredOn(q -> q.name().equals(dlq)).singleElement()
                .satisfies(q -> {
                    assertThat(q.depth()).isEqualTo(4);
                    assertThat(q.originalAddress()).isEqualTo(queue);
                });
        List<DeadLetterGroup> groups = overview.groups().stream().filter(g -> g.queue().equals(dlq)).toList();
        assertThat(groups).extracting(DeadLetterGroup::reasonClass, DeadLetterGroup::eventType,
                        DeadLetterGroup::count, DeadLetterGroup::applied)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("BUSINESS_RULE", "OrderCreated", 2, 0),
                        org.assertj.core.groups.Tuple.tuple("MALFORMED_ENVELOPE", null, 1, 0),
                        org.assertj.core.groups.Tuple.tuple("UNKNOWN_TYPE", "OrderShipped", 1, 0));
        DeadLetterGroup business = groups.get(0);
        assertThat(business.reason()).isEqualTo("the effect of OrderCreated changed no row (requireRows): "
                + ":data.amount=…, :data.customerId=…");
        assertThat(business.example()).endsWith(":data.amount=5, :data.customerId=zed");
        assertThat(business.oldest()).isEqualTo(first);
        assertThat(business.newest()).isEqualTo(first);
        assertThat(groups.get(2).oldest()).isEqualTo(first.plus(Duration.ofMinutes(1)));
        assertThat(groups.get(2).reason()).isEqualTo("type OrderShipped version # is not accepted by this consumer "
                + "(accept: OrderCreated:1)");
        assertThat(groups.get(2).example()).contains("OrderShipped version 1 is not accepted");

        DeadLetterPage orders = redelivery.messages(filter("queue=" + queue + "&type=OrderCreated"), 0, 50, false);
        assertThat(orders.total()).isEqualTo(2);
        assertThat(orders.messages()).extracting(DeadLetter::eventId).containsExactly(zed1.id(), zed2.id());
        assertThat(orders.messages()).allSatisfy(d -> {
            assertThat(d.subject()).isIn(zed1.subject(), zed2.subject());
            assertThat(d.consumer()).isEqualTo(consumer);
            assertThat(d.originalAddress()).isEqualTo(queue);
            assertThat(d.deliveryCount()).isEqualTo(1);
            assertThat(d.failedAt()).isEqualTo(first);
            assertThat(d.inbox().state()).isEqualTo(InboxState.NOT_APPLIED);
            assertThat(d.inbox().consumer()).isEqualTo(consumer);
            assertThat(d.body()).isNull();
        });
        DeadLetterPage malformed = redelivery.messages(filter("queue=" + queue
                + "&reasonClass=malformed_envelope"), 0, 50, true);
        assertThat(malformed.messages()).singleElement().satisfies(d -> {
            assertThat(d.inbox().state()).isEqualTo(InboxState.NO_EVENT_ID);
            assertThat(d.body()).isEqualTo("{\"specversion\":\"1.0\",\"id\":");
        });
        DeadLetterPage later = redelivery.messages(filter("queue=" + dlq + "&from="
                + first.plusSeconds(30)), 0, 50, false);
        assertThat(later.total()).isEqualTo(2);
        DeadLetterPage paged = redelivery.messages(filter("queue=" + queue), 1, 2, false);
        assertThat(paged.total()).isEqualTo(4);
        assertThat(paged.messages()).hasSize(2);
        assertThat(redelivery.messages(filter("queue=" + queue + "&subject=" + zed2.subject()), 0, 50, false)
                .messages()).extracting(DeadLetter::eventId).containsExactly(zed2.id());

        assertThat(deadLetters(queue)).as("browsing consumed nothing").hasSize(4);
        Awaitility.await("the depth gauge, sampled on its schedule").atMost(Duration.ofSeconds(10)).until(() -> {
            var gauge = meters.find("gateway.dlq.depth").tag("queue", dlq).gauge();
            return gauge != null && gauge.value() == 4.0;
        });
    }

    @Test
    void aDryRunReportsExactlyWhatWouldMoveMovesNothingAndIsAudited() throws Exception {
        String queue = unique("it.dlq.dry");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope a = order("OrderCreated", "zed", "1");
        EventEnvelope b = order("OrderCreated", "zed", "2");
        EventEnvelope c = order("OrderCreated", "yan", "3");
        send(queue, a, b, c, order("OrderShipped", "alice", "4"));
        awaitDeadLetters(queue, 4);
        int auditRows = audit("dlq.redeliver").size();

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue
                + "&reasonClass=BUSINESS_RULE"), true, 5, null, false));

        assertThat(report.dryRun()).isTrue();
        assertThat(report.selected()).isEqualTo(3);
        assertThat(report.moved()).isEqualTo(3);
        assertThat(report.inboxPolicy()).isEqualTo(InboxPolicy.SKIP_APPLIED);
        assertThat(report.items()).extracting(RedeliveryReport.Item::eventId).containsExactly(a.id(), b.id(), c.id());
        assertThat(report.items()).allSatisfy(i -> {
            assertThat(i.outcome()).isEqualTo(RedeliveryOutcome.MOVED);
            assertThat(i.target()).isEqualTo(queue + "::" + queue);
        });
        assertThat(deadLetters(queue)).as("nothing moved").hasSize(4);
        assertThat(browse(queue)).isEmpty();
        assertThat(sleeper.waits()).as("a dry run does not pace").isEmpty();
        assertThat(audit("dlq.redeliver")).hasSize(auditRows + 1);
        Map<String, Object> row = last(audit("dlq.redeliver"));
        assertThat(bool(row.get("dry_run"))).isTrue();
        assertThat(((Number) row.get("affected")).intValue()).isEqualTo(3);
        assertThat((String) row.get("selection")).contains("reasonClass=BUSINESS_RULE").contains("queue=" + queue);
        assertThat((String) row.get("detail")).contains("would move 3");
        assertThat(audit("dlq.redeliver.start").stream().map(r -> String.valueOf(r.get("selection")))
                .filter(s -> s.contains(queue))).as("a dry run starts nothing").isEmpty();
    }

    @Test
    void aFilteredRedeliveryMovesExactlyTheSelectedMessagesAndTheFixedConsumerAppliesThemOnce() throws Exception {
        String queue = unique("it.dlq.move");
        String consumer = unique("wallet");
        String route = startConsumer(consumer, queue, Map.of());
        EventEnvelope zed1 = order("OrderCreated", "zed", "5");
        EventEnvelope zed2 = order("OrderCreated", "zed", "7");
        EventEnvelope yan = order("OrderCreated", "yan", "11");
        send(queue, zed1, yan, zed2, order("OrderShipped", "alice", "1"));
        awaitDeadLetters(queue, 4);
        Map<String, Message> before = deadLetters(queue).stream().filter(m -> property(m, "ce_id") != null)
                .collect(Collectors.toMap(m -> property(m, "ce_id"), m -> m));

        stopRoute(route);
        openWallet("zed");
        Instant at = clock.instant();
        RedeliveryReport report = redelivery.redeliver(new RedeliveryRequest(
                DeadLetterFilter.ALL.withQueue(deadLetterQueue(queue)).withIds(Set.of(zed1.id(), zed2.id())), false,
                1000, InboxPolicy.SKIP_APPLIED, false, false));

        assertThat(report.moved()).isEqualTo(2);
        assertThat(report.selected()).isEqualTo(2);
        assertThat(report.failed() + report.gone() + report.refused() + report.notAttempted()).isZero();
        assertThat(report.error()).isNull();
        assertThat(deadLetters(queue)).extracting(m -> property(m, "ce_type"), m -> property(m, "ce_id"))
                .as("exactly the others stay").containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("OrderCreated", yan.id()),
                        org.assertj.core.groups.Tuple.tuple("OrderShipped", property(deadLetters(queue).stream()
                                .filter(m -> "OrderShipped".equals(property(m, "ce_type"))).findFirst().orElseThrow(),
                                "ce_id")));
        List<Message> copies = browse(queue);
        assertThat(copies).extracting(m -> property(m, "ce_id")).containsExactly(zed1.id(), zed2.id());
        for (Message copy : copies) {
            Message dead = before.get(property(copy, "ce_id"));
            EventEnvelope sent = property(copy, "ce_id").equals(zed1.id()) ? zed1 : zed2;
            assertThat(text(copy)).as("body byte for byte").isEqualTo(text(dead)).isEqualTo(body(sent));
            for (String p : List.of("ce_type", "ce_subject", "ce_source", "ce_eventversion", "JMSXGroupID")) {
                assertThat(property(copy, p)).as(p).isEqualTo(property(dead, p)).isNotNull();
            }
            assertThat(copy.getJMSCorrelationID()).isEqualTo(sent.correlationId());
            assertThat(property(copy, "gw_redelivered_by")).isEqualTo("local:" + System.getProperty("user.name"));
            assertThat(property(copy, "gw_redelivered_at")).as("1000 per second: 1 ms apart on the pinned clock")
                    .isEqualTo((sent == zed1 ? at : at.plusMillis(1)).toString());
            assertThat(property(copy, "gw_redelivery_count")).isEqualTo("1");
            assertThat(property(copy, EnvelopeMessages.DUPLICATE_ID)).isEqualTo(sent.id() + "|redelivery:"
                    + dead.getJMSMessageID() + "|" + queue);
            List<String> names = Collections.list(copy.getPropertyNames()).stream().map(Object::toString).toList();
            assertThat(names).noneMatch(n -> n.startsWith("gw_dlq_") || n.startsWith("_AMQ_ORIG"));
        }

        startRoute(route);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("12")) == 0);
        assertThat(inboxRows(zed1.id())).isEqualTo(1);
        assertThat(inboxRows(zed2.id())).isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browse(queue).isEmpty());
        assertThat(total("zed")).as("applied once each").isEqualByComparingTo("12");
        assertThat(deadLetters(queue)).hasSize(2);
        assertThat(counter("gateway.dlq.redelivered", "queue", deadLetterQueue(queue))).isEqualTo(2.0);
        Map<String, Object> start = last(audit("dlq.redeliver.start"));
        assertThat(((Number) start.get("affected")).intValue()).isEqualTo(2);
        Map<String, Object> done = last(audit("dlq.redeliver"));
        assertThat(bool(done.get("dry_run"))).isFalse();
        assertThat(((Number) done.get("affected")).intValue()).isEqualTo(2);
        assertThat((String) done.get("target")).isEqualTo(deadLetterQueue(queue));
        assertThat((String) done.get("selection")).contains(zed1.id()).contains(zed2.id());
        assertThat((String) done.get("detail")).contains("moved 2");
    }

    @Test
    void theRateLimitIsHonouredCountedOnAPinnedClock() throws Exception {
        String queue = unique("it.dlq.rate");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope[] events = new EventEnvelope[6];
        for (int i = 0; i < events.length; i++) {
            events[i] = order("OrderCreated", "zed", "1");
        }
        send(queue, events);
        awaitDeadLetters(queue, 6);
        openWallet("zed");

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue), false, 4, null, false));

        assertThat(report.moved()).isEqualTo(6);
        assertThat(sleeper.waits()).as("4 per second: 250 ms between two messages, none before the first")
                .containsExactly(Collections.nCopies(5, Duration.ofMillis(250)).toArray(Duration[]::new));
        assertThat(Duration.between(report.startedAt(), report.finishedAt())).isEqualTo(Duration.ofMillis(1250));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("6")) == 0);

        EventEnvelope more1 = order("OrderCreated", "nobody", "1");
        EventEnvelope more2 = order("OrderCreated", "nobody", "1");
        EventEnvelope more3 = order("OrderCreated", "nobody", "1");
        send(queue, more1, more2, more3);
        awaitDeadLetters(queue, 3);
        sleeper.reset();
        RedeliveryReport byDefault = redelivery.redeliver(request(filter("queue=" + queue), true, null, null, false));
        assertThat(byDefault.ratePerSecond()).as("gateway.dead-letters.default-rate-per-second").isEqualTo(20);
        redelivery.redeliver(request(filter("queue=" + queue), false, null, null, false));
        assertThat(sleeper.waits()).containsExactly(Duration.ofMillis(50), Duration.ofMillis(50));
        awaitDeadLetters(queue, 3);
    }

    @Test
    void anAppliedDeadLetterIsReportedAsAppliedAndSkippedUnderSkipApplied() throws Exception {
        String queue = unique("it.dlq.skip");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "1"));
        EventEnvelope applied = appliedDeadLetter(queue, "10");
        EventEnvelope poison = order("OrderCreated", "zed", "3");
        send(queue, poison);
        awaitDeadLetters(queue, 2);

        List<DeadLetter> letters = redelivery.messages(filter("queue=" + queue), 0, 50, false).messages();
        assertThat(letters).extracting(DeadLetter::eventId, d -> d.inbox().state(), DeadLetter::reasonClass)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(applied.id(), InboxState.APPLIED,
                                "RETRIES_EXHAUSTED"),
                        org.assertj.core.groups.Tuple.tuple(poison.id(), InboxState.NOT_APPLIED, "BUSINESS_RULE"));
        assertThat(redelivery.overview().groups()).filteredOn(g -> g.queue().equals(deadLetterQueue(queue)))
                .extracting(DeadLetterGroup::reasonClass, DeadLetterGroup::applied)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("BUSINESS_RULE", 0),
                        org.assertj.core.groups.Tuple.tuple("RETRIES_EXHAUSTED", 1));

        openWallet("zed");
        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue), false, 1000,
                InboxPolicy.SKIP_APPLIED, false));

        assertThat(report.moved()).isEqualTo(1);
        assertThat(report.skippedApplied()).isEqualTo(1);
        assertThat(report.items()).extracting(RedeliveryReport.Item::eventId, RedeliveryReport.Item::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(applied.id(), RedeliveryOutcome.SKIPPED_APPLIED),
                        org.assertj.core.groups.Tuple.tuple(poison.id(), RedeliveryOutcome.MOVED));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("3")) == 0);
        assertThat(deadLetters(queue)).extracting(m -> property(m, "ce_id")).as("left on the DLQ")
                .containsExactly(applied.id());
        assertThat(total("alice")).isEqualByComparingTo("10");

        RedeliveryReport discard = redelivery.redeliver(new RedeliveryRequest(filter("queue=" + queue), false, 1000,
                InboxPolicy.SKIP_APPLIED, false, true));
        assertThat(discard.discarded()).isEqualTo(1);
        assertThat(discard.moved()).isZero();
        awaitDeadLetters(queue, 0);
        assertThat(browse(queue)).as("discarded, not sent").isEmpty();
        assertThat(total("alice")).isEqualByComparingTo("10");
        assertThat((String) last(audit("dlq.redeliver")).get("detail")).contains("discarded (applied) 1");
    }

    @Test
    void underRedeliverAllTheInboxSkipsAnAppliedDeadLetterAsADuplicate() throws Exception {
        String queue = unique("it.dlq.all");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "1"));
        EventEnvelope applied = appliedDeadLetter(queue, "10");
        double duplicates = counter("gateway.inbox.duplicates", "consumer", consumer);

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue), false, 1000,
                InboxPolicy.REDELIVER_ALL, false));

        assertThat(report.moved()).isEqualTo(1);
        assertThat(report.items()).singleElement().satisfies(i -> {
            assertThat(i.inbox().state()).isEqualTo(InboxState.APPLIED);
            assertThat(i.inboxReleased()).isFalse();
            assertThat(i.detail()).contains("skip it as a duplicate");
        });
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> counter("gateway.inbox.duplicates", "consumer", consumer) == duplicates + 1);
        assertThat(total("alice")).as("effect still once").isEqualByComparingTo("10");
        assertThat(inboxRows(applied.id())).isEqualTo(1);
        assertThat(deadLetters(queue)).isEmpty();
    }

    @Test
    void underReleaseTheInboxRowIsDeletedAuditedAndTheEffectAppliedAgain() throws Exception {
        String queue = unique("it.dlq.release");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of("maxDeliveryAttempts", "1"));
        EventEnvelope applied = appliedDeadLetter(queue, "10");

        RedeliveryReport dry = redelivery.redeliver(request(filter("queue=" + queue), true, 1000,
                InboxPolicy.RELEASE_INBOX_AND_REDELIVER, false));
        assertThat(dry.released()).isEqualTo(1);
        assertThat(inboxRows(applied.id())).as("a dry run releases nothing").isEqualTo(1);

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + queue), false, 1000,
                InboxPolicy.RELEASE_INBOX_AND_REDELIVER, false));

        assertThat(report.moved()).isEqualTo(1);
        assertThat(report.released()).isEqualTo(1);
        assertThat(report.items()).singleElement().satisfies(i -> assertThat(i.inboxReleased()).isTrue());
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("applied a second time"));
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> total("alice").compareTo(new BigDecimal("20")) == 0);
        assertThat(inboxRows(applied.id())).isEqualTo(1);
        Map<String, Object> release = last(audit("dlq.release-inbox"));
        assertThat((String) release.get("target")).isEqualTo(consumer + "@target");
        assertThat((String) release.get("selection")).isEqualTo(applied.id());
        assertThat(((Number) release.get("affected")).intValue()).isEqualTo(1);
        assertThat((String) release.get("detail")).contains("applied again");
        assertThat((String) last(audit("dlq.redeliver")).get("detail")).contains("inbox rows released 1");
    }

    @Test
    void aDeadLetterOlderThanTheReplayHorizonIsRefusedUnlessForced() throws Exception {
        String queue = unique("it.dlq.old");
        String consumer = unique("wallet");
        startConsumer(consumer, queue, Map.of());
        EventEnvelope old = order("OrderCreated", "zed", "4");
        send(queue, old);
        awaitDeadLetters(queue, 1);
        openWallet("zed");
        clock.advance(Duration.ofDays(7).plusMinutes(1));

        RedeliveryReport refused = redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, false));

        assertThat(refused.moved()).isZero();
        assertThat(refused.refused()).isEqualTo(1);
        assertThat(refused.items()).singleElement().satisfies(i ->
                assertThat(i.outcome()).isEqualTo(RedeliveryOutcome.REFUSED_OLDER_THAN_HORIZON));
        assertThat(refused.warnings()).anySatisfy(w -> assertThat(w).contains("replay horizon (PT168H")
                .contains("gateway.retention.inbox = PT720H").contains("apply an effect a second time")
                .contains("force"));
        assertThat(deadLetters(queue)).hasSize(1);

        RedeliveryReport forced = redelivery.redeliver(request(filter("queue=" + queue), false, 1000, null, true));

        assertThat(forced.moved()).isEqualTo(1);
        assertThat(forced.warnings()).anySatisfy(w -> assertThat(w).contains("because force is set")
                .contains("may be applied again"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("4")) == 0);
        assertThat(deadLetters(queue)).isEmpty();
        assertThat((String) last(audit("dlq.redeliver")).get("selection")).contains("force=true");
    }

    @Test
    void aDeadLetterOfATopicSubscriptionGoesBackToThatSubscriptionOnly() throws Exception {
        String address = unique("it.dlq.topic");
        String subscription = unique("billing");
        String other = unique("audit");
        try (jakarta.jms.Connection c = brokerConnectionFactory().createConnection();
             jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE)) {
            for (String q : List.of(subscription, other)) {
                ((org.apache.activemq.artemis.jms.client.ActiveMQSession) s).getCoreSession().createQueue(
                        org.apache.activemq.artemis.api.core.QueueConfiguration.of(q).setAddress(address)
                                .setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.MULTICAST));
            }
        }
        startConsumer(unique("wallet"), address + "::" + subscription, Map.of());
        EventEnvelope poison = order("OrderCreated", "zed", "9");
        try (jakarta.jms.Connection c = brokerConnectionFactory().createConnection();
             jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
             jakarta.jms.MessageProducer p = s.createProducer(s.createTopic(address))) {
            jakarta.jms.TextMessage m = s.createTextMessage(body(poison));
            m.setStringProperty("ce_id", poison.id());
            p.send(m);
        }
        awaitDeadLetters(address, 1);
        assertThat(browse(address + "::" + other)).hasSize(1);
        openWallet("zed");

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + address), false, 1000, null, false));

        assertThat(report.items()).singleElement().satisfies(i -> {
            assertThat(i.outcome()).isEqualTo(RedeliveryOutcome.MOVED);
            assertThat(i.target()).isEqualTo(address + "::" + subscription);
        });
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("9")) == 0);
        assertThat(browse(address + "::" + other)).as("the other subscription got nothing twice").hasSize(1);
        assertThat(deadLetters(address)).isEmpty();
    }

    /**
     * What the broker itself dead-letters (delivery attempts exhausted) carries only {@code _AMQ_ORIG_*} and keeps the
     * original JMS message id; a topic message dead-lettered from two subscriptions is two copies with one id. Made
     * here as the broker makes them (core messages with one user id, sent to DLA), then redelivered: each copy goes
     * back to its own subscription, once.
     */
    @Test
    void deadLettersTheBrokerMovedFromTwoSubscriptionsGoBackEachToItsOwn() throws Exception {
        String address = unique("it.dlq.broker");
        String billing = unique("billing");
        String archive = unique("archive");
        EventEnvelope event = order("OrderCreated", "zed", "6");
        String consumer = unique("wallet");
        try (jakarta.jms.Connection c = brokerConnectionFactory().createConnection();
             jakarta.jms.Session s = c.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE)) {
            org.apache.activemq.artemis.api.core.client.ClientSession core =
                    ((org.apache.activemq.artemis.jms.client.ActiveMQSession) s).getCoreSession();
            for (String q : List.of(billing, archive)) {
                core.createQueue(org.apache.activemq.artemis.api.core.QueueConfiguration.of(q).setAddress(address)
                        .setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.MULTICAST));
            }
            core.createQueue(org.apache.activemq.artemis.api.core.QueueConfiguration.of(deadLetterQueue(address))
                    .setAddress("DLA").setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.MULTICAST)
                    .setFilterString("_AMQ_ORIG_ADDRESS = '" + address + "'").setAutoCreated(true));
            org.apache.activemq.artemis.utils.UUID userId =
                    org.apache.activemq.artemis.utils.UUIDGenerator.getInstance().generateUUID();
            try (org.apache.activemq.artemis.api.core.client.ClientProducer producer = core.createProducer("DLA")) {
                for (String q : List.of(billing, archive)) {
                    org.apache.activemq.artemis.api.core.client.ClientMessage m = core.createMessage(
                            org.apache.activemq.artemis.api.core.Message.TEXT_TYPE, true);
                    m.getBodyBuffer().writeNullableSimpleString(
                            org.apache.activemq.artemis.api.core.SimpleString.of(body(event)));
                    m.setUserID(userId);
                    m.setTimestamp(clock.millis());
                    m.setRoutingType(org.apache.activemq.artemis.api.core.RoutingType.MULTICAST);
                    m.putStringProperty("_AMQ_ORIG_ADDRESS", address);
                    m.putStringProperty("_AMQ_ORIG_QUEUE", q);
                    m.putStringProperty("ce_id", event.id());
                    m.putStringProperty("ce_type", event.type());
                    producer.send(m);
                }
            }
        }
        startConsumer(consumer, address + "::" + billing, Map.of());

        List<DeadLetter> letters = redelivery.messages(filter("queue=" + address), 0, 50, false).messages();
        assertThat(letters).extracting(DeadLetter::originalQueue, DeadLetter::reasonClass, d -> d.inbox().state(),
                        d -> d.inbox().consumer())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(billing, DeadLetter.BROKER,
                                InboxState.NOT_APPLIED, consumer),
                        org.assertj.core.groups.Tuple.tuple(archive, DeadLetter.BROKER, InboxState.NO_INBOX_CONSUMER,
                                null));
        assertThat(letters.get(0).messageId()).as("one id, two copies").isEqualTo(letters.get(1).messageId());
        assertThat(letters.get(0).reason()).isEqualTo(DeadLetter.BROKER_REASON);
        openWallet("zed");

        RedeliveryReport report = redelivery.redeliver(request(filter("queue=" + address), false, 1000, null, false));

        assertThat(report.items()).extracting(RedeliveryReport.Item::target, RedeliveryReport.Item::outcome)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(address + "::" + billing, RedeliveryOutcome.MOVED),
                        org.assertj.core.groups.Tuple.tuple(address + "::" + archive, RedeliveryOutcome.MOVED));
        assertThat(deadLetters(address)).isEmpty();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("6")) == 0);
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> browse(address + "::" + billing).isEmpty());
        assertThat(inboxRows(event.id())).isEqualTo(1);
        assertThat(browse(address + "::" + archive)).as("the other subscription's copy, once").singleElement()
                .satisfies(m -> {
                    assertThat(property(m, "ce_id")).isEqualTo(event.id());
                    assertThat(property(m, "gw_redelivery_count")).isEqualTo("1");
                    assertThat(property(m, EnvelopeMessages.DUPLICATE_ID)).endsWith("|" + archive);
                });
    }

    /**
     * An event whose effect committed and which was then dead-lettered all the same: a failure after the database
     * commit on the consumer's last allowed delivery ({@code maxDeliveryAttempts=1}).
     */
    private EventEnvelope appliedDeadLetter(String queue, String amount) {
        EventEnvelope e = order("OrderCreated", "alice", amount);
        inboxFaults.crashAfterCommitBeforeAckOnce(e.id());
        int before = deadLetters(queue).size();
        send(queue, e);
        awaitDeadLetters(queue, before + 1);
        assertThat(inboxRows(e.id())).as("applied").isEqualTo(1);
        return e;
    }

    static boolean bool(Object v) {
        return v instanceof Boolean b ? b : ((Number) v).intValue() != 0;
    }
}
