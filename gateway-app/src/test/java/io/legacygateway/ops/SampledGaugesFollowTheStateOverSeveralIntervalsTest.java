package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * Every sampled backlog gauge follows the table on a running gateway, with nobody calling the sampler: a change of
 * pending rows, of FAILED rows and of the oldest waiting row shows within two sample intervals, again and again, and
 * the sample age stays below two intervals for as long as the gateway runs. Before, the sampler took its first sample
 * at readiness and never another (its subclass replaced the method that started the schedule): the gauges kept their
 * first values and {@code gateway_outbox_sample_age_seconds} grew without bound.
 */
@SpringBootTest(properties = "gateway.metrics.sample-interval="
        + SampledGaugesFollowTheStateOverSeveralIntervalsTest.INTERVAL_SECONDS + "s")
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@OnPostgres
class SampledGaugesFollowTheStateOverSeveralIntervalsTest {

    static final int INTERVAL_SECONDS = 2;
    private static final Duration TWO_INTERVALS = Duration.ofSeconds(2L * INTERVAL_SECONDS);

    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    MeterRegistry meters;

    @Test
    void pendingFailedAndOldestAgeFollowTheTableWithinTwoIntervalsEachTime() {
        OutboxRows rows = new OutboxRows(new DriverManagerDataSource(LegacyDatabases.directUrl("legacy",
                TestDatabase.POSTGRES, getClass()), "postgres", ""));
        rows.clear();
        // a relay without its timer route: the test decides when rows are published
        OutboxRelay relay = relays.create(Map.of("relay", "gauges", "dataSource", "legacy",
                "destination", "queue:it.gauges"));
        within().untilAsserted(() -> assertThat(gauge("gateway.outbox.pending", relay)).isZero());

        int published = 0;
        for (int round = 1; round <= 3; round++) {
            List<String> ids = rows.insertSequence("order-g" + round, round + 1);
            int waiting = round + 1;
            within().untilAsserted(() -> {
                assertThat(gauge("gateway.outbox.pending", relay)).isEqualTo(waiting);
                assertThat(gauge("gateway.outbox.oldest.pending.age", relay)).isPositive();
            });

            relay.drain(() -> false);
            published += ids.size();
            assertThat(rows.count("PUBLISHED")).isEqualTo(published);
            within().untilAsserted(() -> {
                assertThat(gauge("gateway.outbox.pending", relay)).isZero();
                assertThat(gauge("gateway.outbox.oldest.pending.age", relay)).isZero();
            });

            rows.jdbc().update("UPDATE outbox SET status = 'FAILED' WHERE id = ?", ids.get(0));
            published--;
            int failed = round;
            within().untilAsserted(() -> assertThat(gauge("gateway.outbox.failed", relay)).isEqualTo(failed));
        }

        rows.jdbc().update("DELETE FROM outbox WHERE status = 'FAILED'");
        within().untilAsserted(() -> assertThat(gauge("gateway.outbox.failed", relay)).isZero());
        // five intervals more: the sample age never reaches two intervals
        Awaitility.await().during(Duration.ofSeconds(5L * INTERVAL_SECONDS))
                .atMost(Duration.ofSeconds(6L * INTERVAL_SECONDS)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(gauge("gateway.outbox.sample.age", relay))
                        .isLessThan(TWO_INTERVALS.toSeconds()));
    }

    /** Within two sample intervals (and the half second a look and a sampled query may take). */
    private static ConditionFactory within() {
        return Awaitility.await().atMost(TWO_INTERVALS.plusMillis(500)).pollInterval(Duration.ofMillis(100));
    }

    private double gauge(String name, OutboxRelay relay) {
        return meters.get(name).tag("relay", relay.name()).gauge().value();
    }
}
