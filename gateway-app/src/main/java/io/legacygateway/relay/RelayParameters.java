package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import io.legacygateway.config.TemplateParameter;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.transactions.TransactionMode;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Duration;
import java.time.ZoneId;
import org.hibernate.validator.constraints.Range;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The {@code outbox-relay} template's parameters as given, bound and validated by {@link TemplateParameters}: each
 * component is one parameter's whole definition (name, default, validation, and the description the reference table
 * shows). The column mapping ({@link OutboxColumn}) comes on top. What depends on other parameters or on the
 * configuration is checked by {@link RelaySettings#parse}.
 */
@Validated
public record RelayParameters(
        @TemplateParameter(value = "Relay name (lowercase letters, digits, dashes): metric tag, `locked_by` value; by"
                + " convention `routeId: outbox-relay-<relay>`", required = true)
        @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,62}", message = "'${validatedValue}' must match {regexp}")
        String relay,

        @TemplateParameter(value = "Datasource name under `gateway.datasources`; may be left out when exactly one is"
                + " configured", shownDefault = "the only one")
        @DefaultValue("") String dataSource,

        @TemplateParameter("Outbox table, optionally `schema.table`")
        @DefaultValue("outbox") String table,

        @TemplateParameter(value = "`queue:<name>` or `topic:<name>`; the name may use `{eventType}` and"
                + " `{aggregateType}`", required = true)
        String destination,

        @TemplateParameter(value = "CloudEvents `source`", shownDefault = "`gateway.source`")
        @DefaultValue("") String source,

        @TemplateParameter("`JSON` (payload must parse; becomes `data`), `TEXT` (`data` is a string) or `COLUMNS` (no"
                + " payload column: `data` is a JSON object of the columns `payloadColumn` lists, `a, b, c` or `*`)")
        @DefaultValue("JSON") PayloadFormat payloadFormat,

        @TemplateParameter("Status value of rows waiting to be published")
        @DefaultValue("PENDING") @Size(min = 1, max = 64, message = RelayParameters.STATUS_SIZE)
        String pendingStatus,

        @TemplateParameter("Status value written after the broker confirmed the row")
        @DefaultValue("PUBLISHED") @Size(min = 1, max = 64, message = RelayParameters.STATUS_SIZE)
        String publishedStatus,

        @TemplateParameter("Status value of rows parked with their reason")
        @DefaultValue("FAILED") @Size(min = 1, max = 64, message = RelayParameters.STATUS_SIZE)
        String failedStatus,

        @TemplateParameter("Rows per claim and per broker transaction (1-1000). 500 drained fastest in the benchmark"
                + " (100, 250, 500 with 1 and 2 relays; see [Benchmarks](#benchmarks)); a smaller batch holds its row"
                + " locks and its broker transaction for less time, but a relay publishes at most `batchSize` rows per"
                + " cycle, and under load a cycle takes its time whatever its size (~50 ms on a busy 2-core machine):"
                + " 100 carried at most ~2,000 rows/s there and fell 5 s behind writers at that rate, 500 carried"
                + " ~4,000/s. Keep `batchSize` above the steady rate times a cycle's time")
        @DefaultValue("500") @Range(min = 1, max = 1000, message = RelayParameters.OUTSIDE) int batchSize,

        @TemplateParameter("Largest payload the relay publishes, in bytes of UTF-8 (`512KB`, `1MB`, or bytes): a"
                + " longer one is rejected with its size as the reason, and parked after `maxAttempts` like any row"
                + " that cannot become an event. Larger events belong in a store the event points to; a broker sends"
                + " any message over 100 KiB as a large message in chunks")
        @DefaultValue("1MB") DataSize maxPayloadBytes,

        @TemplateParameter("Payload bytes one batch publishes at most: the claimed rows after the one that reaches it"
                + " wait, uncharged, for the next batch, which follows at once (the first row always goes; not in"
                + " `ZERO_WRITE` mode, whose claim must publish every row). Bounds the events and messages a batch"
                + " holds; the claim itself still reads up to `batchSize` rows, so keep `batchSize` small for tables"
                + " of large payloads")
        @DefaultValue("16MB") DataSize maxBatchBytes,

        @TemplateParameter("Pause between polls once the table is drained")
        @DefaultValue("100ms") Duration pollInterval,

        @TemplateParameter("Longest pause between attempts while the broker or database fails")
        @DefaultValue("30s") Duration maxBackoff,

        @TemplateParameter("Longest time a batch's sends and broker commit may take (`LOCAL`). A broker that stops"
                + " taking messages (an address full with `address-full-policy` `BLOCK`, a full disk) makes a send"
                + " wait for it without end while the cycle's database transaction holds its row locks: after this"
                + " time the relay closes its broker connection, rolls the cycle back as an outage (no row charged)"
                + " and backs off. As long as the broker client's own `callTimeout` by default")
        @DefaultValue("30s") Duration publishTimeout,

        @TemplateParameter("Claim lease (PostgreSQL, MariaDB; H2 has none): the database ends a cycle's session that"
                + " stays idle in its transaction for longer (PostgreSQL `idle_in_transaction_session_timeout`, MariaDB"
                + " `idle_transaction_timeout` rounded up to whole seconds, both for that transaction only), which"
                + " releases its row locks, so that another gateway on the same outbox claims the rows of one that froze"
                + " (a stopped process, a long GC pause, a paused VM) or lost its network, within the lease and one"
                + " `pollInterval`. Before the broker commits a batch the cycle proves, on its connection, that its"
                + " session still answers and answered less than the lease ago, else it commits nothing on the broker"
                + " and rolls back as an outage (no row charged). A cycle is idle in its transaction while its steps"
                + " run and while it publishes: must exceed `publishTimeout`, and keep the steps' time well inside it."
                + " See [Running several"
                + " gateways](deployment.md#running-several-gateways)")
        @DefaultValue("60s") Duration claimLease,

        @TemplateParameter("How published rows are recorded: `STATUS` (status column), `TIMESTAMP` (processed-at"
                + " column `publishedAtColumn`, NULL = pending), `DELETE` (delete after publish) or `ZERO_WRITE`"
                + " (read-only; the gateway keeps its position in its own table). See [Connect an existing"
                + " database](#connect-an-existing-database)")
        @DefaultValue("STATUS") MarkMode markMode,

        @TemplateParameter(value = "Datasource holding the gateway's own tables for this relay"
                + " (`gateway_outbox_position`, `gateway_outbox_rejection`); only `ZERO_WRITE` may use another one",
                shownDefault = "the relay's `dataSource`")
        @DefaultValue("") String stateDataSource,

        @TemplateParameter("`ZERO_WRITE`: where a new relay starts, `BEGINNING` (rows already in the table too) or"
                + " `NOW` (only rows not yet final at its first start: committed later, or on MariaDB inserted less"
                + " than `settleTime` before)")
        @DefaultValue("BEGINNING") ZeroWriteReader.StartFrom startFrom,

        @TemplateParameter("`ZERO_WRITE` on MariaDB: margin below the start of the oldest running transaction or"
                + " statement before a row counts as final (at least 200 ms)")
        @DefaultValue("1s") Duration settleTime,

        @TemplateParameter("Time zone of timestamp columns without time zone, read and written (for example"
                + " `Europe/Berlin`)")
        @DefaultValue("UTC") ZoneId naiveTimestampZone,

        @TemplateParameter("Attempts at a row (the broker refuses it, or it cannot become an event) before it is"
                + " parked as `FAILED` (1-100; `1` parks it at the first failure). A broker or database outage is not"
                + " an attempt")
        @DefaultValue("5") @Range(min = 1, max = 100, message = RelayParameters.OUTSIDE) int maxAttempts,

        @TemplateParameter("Wait after a row's first failed attempt; doubled after each further one, with ±20 %"
                + " jitter")
        @DefaultValue("10s") Duration retryBackoff,

        @TemplateParameter("Longest wait between two attempts at a row")
        @DefaultValue("1h") Duration maxRetryBackoff,

        @TemplateParameter("`CONTINUE`: the later rows of a `FAILED` row's aggregate are published;"
                + " `BLOCK_AGGREGATE`: they wait until the `FAILED` row is retried and published, then follow in order"
                + " (not in `ZERO_WRITE` mode)")
        @DefaultValue("CONTINUE") FailedRowPolicy failedRowPolicy,

        @TemplateParameter("Delete published rows this long after publication, e.g. `7d` (`STATUS` with a"
                + " `publishedAtColumn`, and `TIMESTAMP`; refused in `DELETE` and `ZERO_WRITE` mode and for tables"
                + " whose owner deletes rows); `FAILED` and waiting rows are never deleted. See"
                + " [Retention](#retention)")
        @DefaultValue(RelayParameters.RETENTION_OFF) String retention,

        @TemplateParameter("Record every attempt in `gateway_outbox_attempt` (in the `stateDataSource`): sent, the"
                + " broker's answer, what the mark did. The facts of the"
                + " [reconciliation report](#reconciliation-and-the-lab). Two writes per batch. The batch's attempts"
                + " (on PostgreSQL one row of `gateway_outbox_attempt_pack` for the whole batch, where"
                + " `relay-state.sql` created it; else one row per attempt), in a transaction of their own, written"
                + " while the batch is sent and committed before the broker commits it (a log that cannot be written"
                + " commits nothing on the broker). Then the batch's finish, its answer and mark as one row of"
                + " `gateway_outbox_cycle` (only an attempt whose answer or mark differs from its batch's, refused,"
                + " deferred or parked, gets a row or an update of its own; readers take an attempt's own values, else"
                + " its batch's), in the batch's own transaction with the mark, so that a committed mark always has"
                + " its finish; after that transaction, in one of its own, for a batch that rolled back or when the"
                + " `stateDataSource` is another database. On PostgreSQL, when the `stateDataSource` is the relay's"
                + " `dataSource`, the attempts' commit does not wait for its WAL flush: the batch's mark commit, which"
                + " waits, flushes it (a kill -9 of the gateway loses nothing; a crash of the database server can lose"
                + " only the attempts of batches whose mark it lost with them: their rows are published again, the"
                + " broker drops the copies it holds, recorded then as `DUPLICATE`). `false` saves those writes, and"
                + " the report then cannot tell duplicate deliveries")
        @DefaultValue("true") boolean attemptLog,

        @TemplateParameter(value = "Business table whose every row must have an intent in this outbox (for example the"
                + " table capture triggers watch): the reconciliation reports a row without one as"
                + " `DUAL_WRITE_GAP_OBSERVED`. Needs rows that stay (`STATUS` or `TIMESTAMP` mode, `retention` off)",
                shownDefault = "(none)")
        @DefaultValue("") String domainTable,

        @TemplateParameter("Key column of `domainTable`; its value as text is the intent's aggregate id")
        @DefaultValue("id") String domainKeyColumn,

        @TemplateParameter(value = "Aggregate type of `domainTable`'s intents; empty: any type counts",
                shownDefault = "(any)")
        @DefaultValue("") String domainAggregateType,

        @TemplateParameter("`NONE`: rows are claimed at the next poll. `NOTIFY` (PostgreSQL; refused elsewhere at"
                + " startup): the relay listens on channel `gw_outbox_<table>` and runs a cycle as soon as a"
                + " notification arrives; needs the trigger of `triggers --notify`. Polling at `pollInterval` stays"
                + " the safety net. See [Wake-up](#wake-up-listennotify)")
        @DefaultValue("NONE") WakeUp wakeUp,

        @TemplateParameter("`LOCAL`: the broker's transaction commits, then the database's (at-least-once; a crash in"
                + " between resends the batch and the broker's duplicate detection drops the copies). `XA`: claim,"
                + " publish and mark in one global transaction (Narayana, two-phase commit), so the broker's copy and"
                + " the row's mark commit together or not at all; needs `gateway.transactions.*`, PostgreSQL with"
                + " `max_prepared_transactions` > 0 or MariaDB, and a mark mode that writes to the table (not"
                + " `ZERO_WRITE`). See [transactionMode: XA](#transactionmode-xa)")
        @DefaultValue("LOCAL") TransactionMode transactionMode,

        @TemplateParameter(value = "Step 1 of each event, before publish: an expression (`simple:`, `jq:` or `xpath:`)"
                + " that is true for the events to publish; an event for which it is false is not sent, its row is"
                + " marked done and counted (`gateway_outbox_filtered_total`). See [Steps](#steps-shape-events-with-camel)",
                shownDefault = "(none)")
        @DefaultValue("") String filter,

        @TemplateParameter("Reason recorded and counted for an event `filter` drops (at most 64 characters: a metric"
                + " tag)")
        @DefaultValue("filtered") @Size(min = 1, max = 64, message = RelayParameters.STATUS_SIZE) String filterReason,

        @TemplateParameter(value = "Step 2: an expression (`simple:`, `jq:`, `xpath:`) or an endpoint (`xslt:<resource>`,"
                + " `direct:<route>`) whose value replaces the event's data", shownDefault = "(none)")
        @DefaultValue("") String transform,

        @TemplateParameter(value = "Step 3: a `direct:` route (YAML or Java) that sees the event and may replace its"
                + " data (body), type, version and destination (headers) or drop it (header `gw_drop`: the reason)",
                shownDefault = "(none)")
        @DefaultValue("") String steps,

        @TemplateParameter(value = "Copies of each event in other versions, to other destinations:"
                + " `<version>@<destination>`, comma-separated, e.g. `2@queue:orders.v2`; each needs its step"
                + " `asVersion.<version>`. The row is marked once the event and every copy are confirmed. See"
                + " [Steps](#steps-shape-events-with-camel)", shownDefault = "(none)")
        @DefaultValue("") String alsoPublish) {

    /** {@code retention} that keeps published rows. */
    static final String RETENTION_OFF = "off";
    static final String OUTSIDE = "${validatedValue} is outside {min}-{max}";
    static final String STATUS_SIZE = "must be 1-64 characters";
    /** MariaDB caches its list of running transactions for 0.1 s: a shorter margin could pass a row still in flight. */
    static final Duration MIN_SETTLE_TIME = Duration.ofMillis(200);
}
