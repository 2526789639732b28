package io.legacygateway.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code gateway.*}. Unknown keys fail startup and name the key, so a typo is never silently ignored.
 *
 * @param source      CloudEvents {@code source} of published events unless a relay sets its own (a URI-reference
 *                    naming the legacy system); default {@code urn:legacy-gateway}
 * @param datasources the legacy databases, by name; relays and consumers refer to them by that name
 * @param operations  where operator actions are audited ({@link Operations})
 * @param retention   clean-up of inbox rows ({@link Retention})
 * @param deadLetters dead-letter redelivery limits ({@link DeadLetters})
 * @param metrics     how often the backlog gauges and readiness are sampled ({@link Metrics})
 * @param security    who may log in to Hawtio, Jolokia, the actuator and {@code /api/**} ({@link GatewaySecurityProperties})
 * @param transactions the global (XA) transactions of relays with {@code transactionMode: XA} ({@link Transactions})
 */
@Validated
@ConfigurationProperties(prefix = "gateway", ignoreUnknownFields = false)
public record GatewayProperties(
        @DefaultValue("urn:legacy-gateway") @NotBlank String source,
        @DefaultValue Map<String, @Valid DataSourceSpec> datasources,
        @DefaultValue @Valid @NotNull GatewaySecurityProperties security,
        @DefaultValue @Valid @NotNull Operations operations,
        @DefaultValue @Valid @NotNull Retention retention,
        @DefaultValue @Valid @NotNull DeadLetters deadLetters,
        @DefaultValue @Valid @NotNull Metrics metrics,
        @DefaultValue @Valid @NotNull Reconciliation reconciliation,
        @DefaultValue @Valid @NotNull Transactions transactions) {

    /**
     * Narayana, the transaction manager of relays with {@code transactionMode: XA}; read only when a relay uses XA
     * (then the first two are required, and startup fails naming the one missing).
     *
     * @param logDir           Narayana's object store: the record of every transaction between its prepare and its
     *                         commit, which recovery completes after a crash. Must survive restarts and belong to this
     *                         instance alone (not under /tmp, not in a build folder, not shared); no default
     * @param nodeId           this instance's transaction node name, written into every transaction id: recovery rolls
     *                         back the unfinished branches of its own node only, so two gateways on one database or
     *                         broker need different ones (1-28 characters); no default
     * @param recoveryInterval time between two passes of periodic recovery; default 30s
     */
    public record Transactions(
            String logDir,
            @Pattern(regexp = "[A-Za-z0-9._-]{1,28}", message = "'${validatedValue}' must match {regexp}") String nodeId,
            @DefaultValue("30s") @NotNull Duration recoveryInterval) {
    }

    /**
     * Sampled metrics: the per-relay backlog gauges (pending and FAILED rows, age of the oldest waiting row) and the
     * readiness gauge are refreshed on this schedule by a few cheap statements, never per scrape.
     *
     * @param sampleInterval time between two samples; default 15s
     * @param healthCache    how long the result of the readiness group's database and broker checks is reused by
     *                       every caller (probes, {@code /actuator/health}, the readiness sample), so that a flood of
     *                       requests opens no connection per request; default 2s, 0 to check at every call; at most
     *                       half of {@code sampleInterval} is used ({@link #healthCacheInEffect()}), so that each
     *                       sample sees a check newer than the last sample
     */
    public record Metrics(@DefaultValue("15s") @NotNull Duration sampleInterval,
                          @DefaultValue("2s") @NotNull Duration healthCache) {

        /** Startup refuses a negative cache time. */
        @AssertTrue(message = "gateway.metrics.health-cache must be 0 or positive")
        public boolean isHealthCacheValid() {
            return healthCache == null || !healthCache.isNegative();
        }

        /**
         * The cache time used: {@code health-cache}, but no more than half the sample interval (a short
         * {@code sample-interval} with the default cache is a setting users make, not an error).
         */
        public Duration healthCacheInEffect() {
            Duration half = sampleInterval.dividedBy(2);
            return healthCache.compareTo(half) <= 0 ? healthCache : half;
        }
    }

    /**
     * Clean-up of the gateway's own rows (outbox retention is per relay: its {@code retention} parameter).
     *
     * @param inbox     how long inbox rows are kept after they were processed; default 30d. Must cover the broker's
     *                  redelivery span plus {@link DeadLetters#replayHorizon}: a replay after the inbox row is gone would
     *                  apply the effect again (startup refuses a shorter value, naming this key)
     * @param interval  how often retention runs; default 1h
     * @param batchSize rows deleted per transaction, so that no clean-up holds long locks; default 500
     */
    public record Retention(
            @DefaultValue("30d") @NotNull Duration inbox,
            @DefaultValue("1h") @NotNull Duration interval,
            @DefaultValue("500") @Min(1) int batchSize) {
    }

    /**
     * Dead-letter redelivery ({@code io.legacygateway.deadletter}).
     *
     * @param replayHorizon       dead letters older than this are not redelivered (their inbox rows may be gone);
     *                            default 7d
     * @param defaultRatePerSecond redelivery pace when the operator gives none; default 50
     * @param address             the broker's dead-letter address whose queues ({@code DLQ.<address>}) are listed and
     *                            redelivered from; default {@code DLA}, as in artemis-config/broker.xml
     * @param depthInterval       how often the {@code gateway.dlq.depth} gauge is sampled from the broker; default 30s,
     *                            0 turns sampling off
     * @param browseLimit         most messages read from one dead-letter queue per listing or redelivery (a listing
     *                            says when it stopped there); default 10000
     */
    public record DeadLetters(
            @DefaultValue("7d") @NotNull Duration replayHorizon,
            @DefaultValue("50") @Min(1) @Max(10000) int defaultRatePerSecond,
            @DefaultValue("DLA") @NotBlank String address,
            @DefaultValue("30s") @NotNull Duration depthInterval,
            @DefaultValue("10000") @Min(1) int browseLimit) {

        /** Startup refuses a horizon that is not positive and a negative sampling interval. */
        @AssertTrue(message = "gateway.dead-letters.replay-horizon must be positive and "
                + "gateway.dead-letters.depth-interval must be 0 (off) or positive")
        public boolean isDurationsValid() {
            return replayHorizon != null && depthInterval != null && !replayHorizon.isNegative()
                    && !replayHorizon.isZero() && !depthInterval.isNegative();
        }
    }

    /**
     * The reconciliation report ({@code io.legacygateway.reconciliation}) over each relay's outbox and attempt log.
     *
     * @param stuckAfter       a waiting intent older than this is STUCK_INTENT_DETECTED; default 15m
     * @param stuckAttempts    a waiting intent with this many failed attempts is STUCK_INTENT_DETECTED; default 3
     * @param window           how far back the attempt log is searched for duplicate deliveries and published intents;
     *                         default 24h
     * @param limit            most intents per relay and kind in one report (the report says when it stopped there);
     *                         default 200
     * @param attemptRetention attempts older than this are deleted by the retention job; default 7d (at least the
     *                         window)
     */
    public record Reconciliation(
            @DefaultValue("15m") @NotNull Duration stuckAfter,
            @DefaultValue("3") @Min(1) int stuckAttempts,
            @DefaultValue("24h") @NotNull Duration window,
            @DefaultValue("200") @Min(1) @Max(10000) int limit,
            @DefaultValue("7d") @NotNull Duration attemptRetention) {

        /** Startup refuses durations that are not positive and an attempt retention shorter than the window. */
        @AssertTrue(message = "gateway.reconciliation.stuck-after, window and attempt-retention must be positive, and"
                + " gateway.reconciliation.attempt-retention at least gateway.reconciliation.window")
        public boolean isDurationsValid() {
            return stuckAfter != null && window != null && attemptRetention != null && stuckAfter.toMillis() > 0
                    && window.toMillis() > 0 && attemptRetention.compareTo(window) >= 0;
        }
    }

    /**
     * Where operator actions are recorded.
     *
     * @param dataSource the datasource holding {@code gateway_operation_audit}; may be left empty when exactly one
     *                   datasource is configured
     */
    public record Operations(@DefaultValue("") String dataSource) {
    }

    /**
     * One legacy database.
     *
     * @param url              JDBC URL; the dialect is detected from the database itself
     * @param username         user (least privilege: see the README's grants)
     * @param password         password
     * @param maximumPoolSize  connections kept by the pool; default 10
     * @param connectTimeout   how long to wait for a connection; default 10s
     * @param initializeSchema create, if missing, the gateway's own tables of what is configured on this datasource
     *                         (a relay's state where it is the relay's stateDataSource, and the default outbox for a
     *                         relay with table {@code outbox}; a consumer's inbox tables; the operator audit where it
     *                         is gateway.operations.data-source) and nothing else; default false, because a legacy
     *                         database is not the gateway's to change unless its owner asks
     * @param properties       extra driver properties, for example {@code socketTimeout}
     */
    public record DataSourceSpec(
            @NotBlank String url,
            String username,
            String password,
            @DefaultValue("10") @Min(1) int maximumPoolSize,
            @DefaultValue("10s") @NotNull Duration connectTimeout,
            @DefaultValue("false") boolean initializeSchema,
            @DefaultValue Map<String, String> properties) {
    }
}
