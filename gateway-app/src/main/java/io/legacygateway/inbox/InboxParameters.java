package io.legacygateway.inbox;

import io.legacygateway.config.TemplateParameter;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.transactions.TransactionMode;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.hibernate.validator.constraints.Range;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The {@code inbox-consumer} template's parameters as given, bound and validated by {@link TemplateParameters}: each
 * component is one parameter's whole definition (name, default, validation, and the description the reference table
 * shows). {@code effectSql.<Type>}, {@code effectEndpoint.<Type>} and {@code upcast.<Type>.<version>} come on top.
 * What depends on other parameters or on the configuration is checked by {@link InboxSettings#parse}.
 */
@Validated
public record InboxParameters(
        @TemplateParameter(value = "Consumer name (lowercase letters, digits, dashes; at most 64): the inbox's"
                + " `consumer_name` and the metric tag; by convention `routeId: inbox-consumer-<consumer>`",
                required = true)
        @Pattern(regexp = "[a-z0-9][a-z0-9-]{0,63}", message = "'${validatedValue}' must match {regexp}")
        String consumer,

        @TemplateParameter(value = "Datasource under `gateway.datasources` holding the inbox table and changed by the"
                + " effects", shownDefault = "the only one")
        @DefaultValue("") String dataSource,

        @TemplateParameter(value = "Artemis queue: `<name>` (the anycast queue of that address) or"
                + " `<address>::<queue>`", required = true)
        String queue,

        @TemplateParameter(value = "Accepted event types and versions, e.g. `OrderCreated:1,OrderPaid:1`; any other"
                + " type or version is dead-lettered", required = true)
        String accept,

        @TemplateParameter("SQL run in the inbox transaction, with named parameters from the envelope;"
                + " `effectSql.<Type>` for one type")
        @DefaultValue("") String effectSql,

        @TemplateParameter("Camel endpoint called in the inbox transaction (`direct:…`, `bean:…`), after `effectSql`"
                + " if both are set; `effectEndpoint.<Type>` for one type")
        @DefaultValue("") String effectEndpoint,

        @TemplateParameter("`true`: an SQL effect that changes no row is a business-rule violation (dead-lettered at"
                + " once)")
        @DefaultValue("false") boolean requireRows,

        @TemplateParameter("Inbox table (`message_id, consumer_name, processed_at`), optionally `schema.table`")
        @DefaultValue("inbox") String inboxTable,

        @TemplateParameter("Largest message body accepted (UTF-8 bytes); larger ones are dead-lettered, a text one"
                + " unread when the size the broker gives shows it")
        @DefaultValue("1048576") @Range(min = 256, max = 64 * 1024 * 1024, message = InboxParameters.OUTSIDE)
        int maxPayloadBytes,

        @TemplateParameter("JMS sessions consuming in parallel (1-64); messages of one aggregate stay on one session")
        @DefaultValue("1") @Range(min = 1, max = 64, message = InboxParameters.OUTSIDE) int concurrentConsumers,

        @TemplateParameter(value = "Delivery on which a message that keeps failing transiently is dead-lettered by the"
                + " gateway, with the last error; at most the broker's `max-delivery-attempts`",
                shownDefault = "the broker's")
        @Range(min = 1, max = 1000, message = InboxParameters.OUTSIDE) Integer maxDeliveryAttempts,

        @TemplateParameter("Longest pause between in-process retries while the database is unreachable (the message"
                + " stays unacknowledged)")
        @DefaultValue("30s") Duration maxBackoff,

        @TemplateParameter(value = "Sequence gate: path of the aggregate's sequence number in the envelope, e.g."
                + " `data.seq`", shownDefault = "(off)")
        @DefaultValue("") @Pattern(regexp = "|data(\\.[A-Za-z0-9_-]{1,100}){1,10}",
                message = "'${validatedValue}' is not a path into the event's data such as data.seq") String sequence,

        @TemplateParameter("Sequence gate: last applied sequence per aggregate and consumer")
        @DefaultValue("inbox_sequence") String sequenceTable,

        @TemplateParameter("Sequence gate: messages that arrived ahead of their turn")
        @DefaultValue("inbox_parked") String parkedTable,

        @TemplateParameter("Most messages received in one transacted JMS session and applied in one database"
                + " transaction (1-1000; `1`: one message per transaction, as before)")
        @DefaultValue("100") @Range(min = 1, max = 1000, message = InboxParameters.OUTSIDE) int batchSize,

        @TemplateParameter("Bytes of message bodies one batch holds at most, as the broker gives their sizes (text"
                + " counts two bytes a character; 1024-1073741824): the message that reaches it ends the batch, and a"
                + " batch's first message is taken whatever its size. Bounds the memory of a session's batch")
        @DefaultValue("16777216") @Range(min = 1024, max = 1024 * 1024 * 1024, message = InboxParameters.OUTSIDE)
        int maxBatchBytes,

        @TemplateParameter("Longest wait, from a batch's first message, for more messages to fill it (at most `1s`);"
                + " messages already queued never wait. Adds at most this to the latency of a message that arrives"
                + " alone")
        @DefaultValue("10ms") Duration batchWait,

        @TemplateParameter(value = "Bytes of messages the broker sends ahead to each session, buffered in the gateway"
                + " (0-16777216). `0`: one message per receive, a broker round trip each (a third of the throughput"
                + " with batches). A gateway crash (not a stop) counts one delivery attempt for each message buffered"
                + " then, and those come back as redeliveries, each in a batch of its own",
                shownDefault = "`262144` (`0` with `batchSize` 1)")
        @Range(min = 0, max = InboxParameters.MAX_CONSUMER_WINDOW, message = InboxParameters.OUTSIDE)
        Integer consumerWindowSize,

        @TemplateParameter("`LOCAL`: the database transaction commits, then the JMS session acknowledges (a crash in"
                + " between redelivers, and the inbox row skips the copy). `XA`: receive, inbox rows, effects,"
                + " dead-letter copies and acknowledgement in one global transaction (Narayana, two-phase commit);"
                + " needs `gateway.transactions.*`, PostgreSQL with `max_prepared_transactions` > 0 or MariaDB, and the"
                + " Artemis client. See [transactionMode: XA](#transactionmode-xa)")
        @DefaultValue("LOCAL") TransactionMode transactionMode) {

    static final String OUTSIDE = "${validatedValue} is outside {min}-{max}";
    /** Largest {@code consumerWindowSize}: what a session may hold unacknowledged beyond its batch stays bounded. */
    static final int MAX_CONSUMER_WINDOW = 16 * 1024 * 1024;
    /** Longest {@code batchWait}: a batch holds its messages unacknowledged while it waits. */
    static final Duration MAX_BATCH_WAIT = Duration.ofSeconds(1);
    /** {@code consumerWindowSize} when not given and {@code batchSize} is more than 1: about 170 messages of 1.5 KiB. */
    static final int DEFAULT_BATCH_WINDOW = 256 * 1024;
}
