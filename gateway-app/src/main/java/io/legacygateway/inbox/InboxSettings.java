package io.legacygateway.inbox;

import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.DurationText;
import io.legacygateway.config.TemplateParameters;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The parameters of one {@code inbox-consumer} route, parsed and validated. Every error names the parameter.
 *
 * @param consumer            consumer name: the inbox's {@code consumer_name}, metric tag
 * @param dataSource          name under {@code gateway.datasources}: the database of the inbox and of the effects
 * @param queue               the queue consumed
 * @param accept              accepted types and versions
 * @param effects             per accepted type, what applying it means
 * @param requireRows         an SQL effect that changes no row is a business-rule violation
 * @param maxDeliveryAttempts deliveries before a transiently failing message is dead-lettered; {@code null} for the
 *                            broker's {@code max-delivery-attempts}
 * @param maxBackoff          longest pause between in-process retries while the database is unreachable
 * @param sequence            path of the aggregate sequence in the envelope (sequence gate), {@code null} when off
 * @param batchSize           most messages received on one JMS session and applied in one database transaction
 * @param batchWait           longest wait, from a batch's first message, for more messages to fill the batch
 * @param consumerWindowSize  bytes of messages the broker may send ahead to each session's consumer (0: one message
 *                            per receive, each a round trip)
 */
public record InboxSettings(String consumer, String dataSource, QueueName queue, AcceptedTypes accept,
                            Map<String, Effect> effects, boolean requireRows, TableName inboxTable,
                            int maxPayloadBytes, int concurrentConsumers, Integer maxDeliveryAttempts,
                            Duration maxBackoff, String sequence, TableName sequenceTable, TableName parkedTable,
                            int batchSize, Duration batchWait, int consumerWindowSize) {

    /** Longest {@code batchWait}: a batch holds its messages unacknowledged while it waits. */
    static final Duration MAX_BATCH_WAIT = Duration.ofSeconds(1);
    /** {@code consumerWindowSize} when not given and {@code batchSize} is more than 1: about 170 messages of 1.5 KiB. */
    static final int DEFAULT_BATCH_WINDOW = 256 * 1024;
    /** Largest {@code consumerWindowSize}: what a session may hold unacknowledged beyond its batch stays bounded. */
    static final int MAX_CONSUMER_WINDOW = 16 * 1024 * 1024;

    /** Template parameters, with their defaults and descriptions (the README's table shows the same text). */
    public enum Parameter implements TemplateParameters.Parameter {
        CONSUMER("consumer", null, "Consumer name (lowercase letters, digits, dashes; at most 64): the inbox's consumer_name and the metric tag; by convention routeId inbox-consumer-<consumer>"),
        DATA_SOURCE("dataSource", "", "Datasource under gateway.datasources holding the inbox table and changed by the effects; may be left out when exactly one is configured"),
        QUEUE("queue", null, "Artemis queue to consume: <name> (anycast queue of that address) or <address>::<queue>"),
        ACCEPT("accept", null, "Accepted event types and versions, e.g. OrderCreated:1,OrderPaid:1; any other type or version is dead-lettered"),
        EFFECT_SQL("effectSql", "", "SQL run in the inbox transaction with named parameters from the envelope (:id, :subject, :type, :data.orderId ...); effectSql.<Type> for one type"),
        EFFECT_ENDPOINT("effectEndpoint", "", "Camel endpoint called in the inbox transaction (direct:..., bean:...), after effectSql if both are set; effectEndpoint.<Type> for one type"),
        REQUIRE_ROWS("requireRows", "false", "true: an SQL effect that changes no row is a business-rule violation (dead-lettered at once)"),
        INBOX_TABLE("inboxTable", "inbox", "Inbox table (message_id, consumer_name, processed_at), optionally schema.table"),
        MAX_PAYLOAD_BYTES("maxPayloadBytes", "1048576", "Largest message body accepted; larger ones are dead-lettered"),
        CONCURRENT_CONSUMERS("concurrentConsumers", "1", "JMS sessions consuming in parallel (1-64); messages of one aggregate (JMSXGroupID) stay on one session"),
        MAX_DELIVERY_ATTEMPTS("maxDeliveryAttempts", "", "Delivery on which a message that keeps failing transiently is dead-lettered by the gateway, with the last error; default and upper bound: the broker's max-delivery-attempts for the queue"),
        MAX_BACKOFF("maxBackoff", "30s", "Longest pause between in-process retries while the database is unreachable (the message stays unacknowledged)"),
        SEQUENCE("sequence", "", "Sequence gate: path of the aggregate's sequence number in the envelope, e.g. data.seq; off when empty"),
        SEQUENCE_TABLE("sequenceTable", "inbox_sequence", "Sequence gate: last applied sequence per aggregate and consumer"),
        PARKED_TABLE("parkedTable", "inbox_parked", "Sequence gate: messages that arrived ahead of their turn"),
        BATCH_SIZE("batchSize", "100", "Most messages received in one transacted JMS session and applied in one database transaction (1-1000; 1: one message per transaction)"),
        BATCH_WAIT("batchWait", "10ms", "Longest wait, from a batch's first message, for more messages to fill it (at most 1s); messages already queued never wait"),
        CONSUMER_WINDOW_SIZE("consumerWindowSize", "", "Bytes of messages the broker sends ahead to each session, buffered in the gateway (0-16777216; 0: one message per receive, a round trip each); default 262144, 0 with batchSize 1. A gateway crash counts one delivery attempt for each buffered message");

        private final String key;
        private final String defaultValue;
        private final String description;

        Parameter(String key, String defaultValue, String description) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.description = description;
        }

        public String key() {
            return key;
        }

        /** {@code null} for a required parameter. */
        public String defaultValue() {
            return defaultValue;
        }

        public String description() {
            return description;
        }
    }

    /**
     * What applying one event type means: an SQL statement, a Camel endpoint, or both (SQL first), each with the
     * parameter it came from ({@code effectSql} or {@code effectSql.<Type>}), for error messages.
     */
    public record Effect(String sql, String endpoint, String sqlParameter, String endpointParameter) {
    }

    /**
     * A queue: {@code address} is what the broker's dead-letter queue is named after and filtered on
     * ({@code _AMQ_ORIG_ADDRESS}); for a plain queue name both are the same.
     */
    public record QueueName(String address, String queue) {

        /** The JMS queue name: the queue itself, or the fully qualified {@code address::queue}. */
        public String jmsName() {
            return address.equals(queue) ? queue : address + "::" + queue;
        }

        @Override
        public String toString() {
            return jmsName();
        }
    }

    /** How errors name a parameter: {@code inbox-consumer 'wallet' parameter 'queue'}. */
    public static String label(String consumer, String parameter) {
        return "inbox-consumer '" + consumer + "' parameter '" + parameter + "'";
    }

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Pattern PATH = Pattern.compile("data(\\.[A-Za-z0-9_-]{1,100}){1,10}");

    /** Every fixed parameter name; {@code effectSql.<Type>} and {@code effectEndpoint.<Type>} come on top. */
    public static Set<String> parameterNames() {
        Set<String> names = new TreeSet<>();
        Arrays.stream(Parameter.values()).map(Parameter::key).forEach(names::add);
        return names;
    }

    /**
     * @param raw            the template parameters as given
     * @param onlyDataSource the single configured datasource, or {@code null} when there are none or several
     */
    public static InboxSettings parse(Map<String, Object> raw, String onlyDataSource) {
        TemplateParameters named = TemplateParameters.of(raw, k -> "inbox-consumer parameter '" + k + "'");
        String consumer = named.required(Parameter.CONSUMER);
        if (!NAME.matcher(consumer).matches()) {
            throw new IllegalArgumentException("inbox-consumer parameter 'consumer': '" + consumer + "' must match "
                    + NAME.pattern());
        }
        TemplateParameters p = named.labelled(k -> label(consumer, k));
        AcceptedTypes accept = AcceptedTypes.parse(label(consumer, "accept"), p.required(Parameter.ACCEPT));
        for (String key : p.given().keySet()) {
            if (parameterNames().contains(key)) {
                continue;
            }
            int dot = key.indexOf('.');
            String base = dot < 0 ? key : key.substring(0, dot);
            if (dot < 0 || !(base.equals("effectSql") || base.equals("effectEndpoint"))) {
                throw new IllegalArgumentException(label(consumer, key) + ": unknown parameter; known: "
                        + parameterNames() + " and effectSql.<Type>, effectEndpoint.<Type>");
            }
            if (!accept.types().contains(key.substring(dot + 1))) {
                throw new IllegalArgumentException(label(consumer, key) + ": '" + key.substring(dot + 1)
                        + "' is not an accepted type (accept: " + accept + ")");
            }
        }
        String dataSource = p.value(Parameter.DATA_SOURCE);
        if (dataSource.isBlank()) {
            if (onlyDataSource == null) {
                throw new IllegalArgumentException(label(consumer, "dataSource") + ": required when "
                        + "gateway.datasources has none or several entries");
            }
            dataSource = onlyDataSource;
        }
        QueueName queue = queue(consumer, p.required(Parameter.QUEUE));
        Map<String, Effect> effects = new LinkedHashMap<>();
        for (String type : accept.types()) {
            String sqlKey = p.given().containsKey("effectSql." + type) ? "effectSql." + type : "effectSql";
            String endpointKey = p.given().containsKey("effectEndpoint." + type) ? "effectEndpoint." + type : "effectEndpoint";
            String sql = blankToNull(p.given().get(sqlKey));
            String endpoint = blankToNull(p.given().get(endpointKey));
            if (sql == null && endpoint == null) {
                throw new IllegalArgumentException(label(consumer, "effectSql") + ": accepted type '" + type
                        + "' has no effect; set effectSql or effectEndpoint (or effectSql." + type + ")");
            }
            effects.put(type, new Effect(sql, endpoint, sqlKey, endpointKey));
        }
        boolean requireRows = p.bool(Parameter.REQUIRE_ROWS);
        int maxPayload = p.integer(Parameter.MAX_PAYLOAD_BYTES, 256, 64 * 1024 * 1024);
        int concurrent = p.integer(Parameter.CONCURRENT_CONSUMERS, 1, 64);
        Integer attempts = p.value(Parameter.MAX_DELIVERY_ATTEMPTS).isBlank() ? null
                : p.integer(Parameter.MAX_DELIVERY_ATTEMPTS, 1, 1000);
        int batchSize = p.integer(Parameter.BATCH_SIZE, 1, 1000);
        String sequence = blankToNull(p.value(Parameter.SEQUENCE));
        if (sequence != null && !PATH.matcher(sequence).matches()) {
            throw new IllegalArgumentException(label(consumer, "sequence") + ": '" + sequence
                    + "' is not a path into the event's data such as data.seq");
        }
        return new InboxSettings(consumer, dataSource, queue, accept, effects, requireRows,
                TableName.parse(label(consumer, "inboxTable"), p.value(Parameter.INBOX_TABLE)), maxPayload,
                concurrent, attempts, p.duration(Parameter.MAX_BACKOFF), sequence,
                TableName.parse(label(consumer, "sequenceTable"), p.value(Parameter.SEQUENCE_TABLE)),
                TableName.parse(label(consumer, "parkedTable"), p.value(Parameter.PARKED_TABLE)),
                batchSize, batchWait(consumer, p.duration(Parameter.BATCH_WAIT)),
                p.value(Parameter.CONSUMER_WINDOW_SIZE).isBlank() ? (batchSize == 1 ? 0 : DEFAULT_BATCH_WINDOW)
                        : p.integer(Parameter.CONSUMER_WINDOW_SIZE, 0, MAX_CONSUMER_WINDOW));
    }

    private static Duration batchWait(String consumer, Duration wait) {
        if (wait.compareTo(MAX_BATCH_WAIT) > 0) {
            throw new IllegalArgumentException(label(consumer, "batchWait") + ": " + DurationText.format(wait)
                    + " is longer than " + DurationText.format(MAX_BATCH_WAIT) + " (the batch's messages stay"
                    + " unacknowledged while it waits)");
        }
        return wait;
    }

    /** The JMS session count as a string, for the endpoint URI. */
    public String concurrentConsumersText() {
        return Integer.toString(concurrentConsumers);
    }

    private static QueueName queue(String consumer, String value) {
        String[] parts = value.split("::", -1);
        if (parts.length > 2 || Arrays.stream(parts).anyMatch(s -> !QUEUE.matcher(s).matches())) {
            throw new IllegalArgumentException(label(consumer, "queue") + ": '" + value + "' is not a queue name ("
                    + QUEUE.pattern() + ", or address::queue)");
        }
        return parts.length == 1 ? new QueueName(parts[0], parts[0]) : new QueueName(parts[0], parts[1]);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
