package io.legacygateway.inbox;

import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.DurationText;
import io.legacygateway.config.TemplateParameters;
import io.legacygateway.steps.EventStep;
import io.legacygateway.transactions.TransactionMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of one {@code inbox-consumer} route: its {@link InboxParameters} with what follows from them and from
 * the configuration (the datasource, the effect of each accepted type, the parsed tables and queue). Every error names
 * the parameter.
 *
 * @param consumer            consumer name: the inbox's {@code consumer_name}, metric tag
 * @param dataSource          name under {@code gateway.datasources}: the database of the inbox and of the effects
 * @param queue               the queue consumed
 * @param accept              accepted types and versions
 * @param effects             per accepted type, what applying it means
 * @param upcasts             the {@code upcast.<Type>.<version>} steps, each turning one version's data into the next
 * @param requireRows         an SQL effect that changes no row is a business-rule violation
 * @param maxDeliveryAttempts deliveries before a transiently failing message is dead-lettered; {@code null} for the
 *                            broker's {@code max-delivery-attempts}
 * @param maxBackoff          longest pause between in-process retries while the database is unreachable
 * @param sequence            path of the aggregate sequence in the envelope (sequence gate), {@code null} when off
 * @param batchSize           most messages received on one JMS session and applied in one database transaction
 * @param maxBatchBytes       bytes of message bodies (as the broker gives them) that end a batch
 * @param batchWait           longest wait, from a batch's first message, for more messages to fill the batch
 * @param consumerWindowSize  bytes of messages the broker may send ahead to each session's consumer (0: one message
 *                            per receive, each a round trip)
 * @param transactionMode     whether a batch is a local database transaction followed by the JMS commit, or one
 *                            global (XA) transaction of both
 */
public record InboxSettings(String consumer, String dataSource, QueueName queue, AcceptedTypes accept,
                            Map<String, Effect> effects, List<Upcast> upcasts, boolean requireRows,
                            TableName inboxTable, int maxPayloadBytes, int concurrentConsumers, Integer maxDeliveryAttempts,
                            Duration maxBackoff, String sequence, TableName sequenceTable, TableName parkedTable,
                            int batchSize, int maxBatchBytes, Duration batchWait, int consumerWindowSize,
                            TransactionMode transactionMode) {

    /**
     * What applying one event type means: an SQL statement, a Camel endpoint, or both (SQL first), each with the
     * parameter it came from ({@code effectSql} or {@code effectSql.<Type>}), for error messages.
     */
    public record Effect(String sql, String endpoint, String sqlParameter, String endpointParameter) {
    }

    /**
     * One {@code upcast.<Type>.<version>}: the step (an {@code EventStep} spec) that turns the data of version
     * {@code from} of {@code type} into the data of version {@code from + 1}.
     */
    public record Upcast(String type, int from, String step, String parameter) {
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

    private static final Pattern QUEUE = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final String EFFECT_SQL = "effectSql";
    private static final String EFFECT_ENDPOINT = "effectEndpoint";
    static final String UPCAST = "upcast";
    /** {@code upcast.<Type>.<version>}; a type name may hold dots, the version is the last part. */
    private static final Pattern UPCAST_KEY = Pattern.compile(Pattern.quote(UPCAST) + "\\.(.+)\\.([0-9]{1,9})");
    /** The reference line of {@code upcast.<Type>.<version>} in docs/inbox.md's parameter table. */
    public static final String UPCAST_DESCRIPTION = "Step (`jq:…`, `simple:…`, `xpath:…`, `direct:<route>`,"
            + " `xslt:<resource>`) turning the data of version `<version>` of `<Type>` into that of `<version>`+1;"
            + " an older accepted version is upcast step by step to the current (highest accepted) one, whose effect"
            + " then runs. See [Versioned contracts: upcasts](#versioned-contracts-upcasts)";

    /**
     * Every fixed parameter name; {@code effectSql.<Type>}, {@code effectEndpoint.<Type>} and
     * {@code upcast.<Type>.<version>} come on top.
     */
    public static Set<String> parameterNames() {
        Set<String> names = new TreeSet<>();
        TemplateParameters.definitions(InboxParameters.class).forEach(d -> names.add(d.key()));
        return names;
    }

    /**
     * Binds and validates the template parameters ({@link InboxParameters}), then checks what depends on several of
     * them or on the configuration. Every error names the consumer and the parameter; one that names no valid
     * consumer is labelled {@code inbox-consumer parameter 'consumer'}.
     *
     * @param raw            the template parameters as given
     * @param onlyDataSource the single configured datasource, or {@code null} when there are none or several
     */
    public static InboxSettings parse(Map<String, Object> raw, String onlyDataSource) {
        Map<String, String> given = TemplateParameters.text(raw);
        String consumer = TemplateParameters.validated(InboxParameters.class, "consumer", given,
                k -> "inbox-consumer parameter '" + k + "'");
        UnaryOperator<String> label = k -> label(consumer, k);
        AcceptedTypes accept = AcceptedTypes.parse(label.apply("accept"),
                TemplateParameters.validated(InboxParameters.class, "accept", given, label));
        Set<String> known = parameterNames();
        for (String key : given.keySet()) {
            if (known.contains(key)) {
                continue;
            }
            int dot = key.indexOf('.');
            String base = dot < 0 ? key : key.substring(0, dot);
            if (dot > 0 && base.equals(UPCAST)) {
                continue; // checked by upcasts()
            }
            if (dot < 0 || !(base.equals(EFFECT_SQL) || base.equals(EFFECT_ENDPOINT))) {
                throw new IllegalArgumentException(label.apply(key) + ": unknown parameter; known: " + known
                        + " and effectSql.<Type>, effectEndpoint.<Type>, upcast.<Type>.<version>");
            }
            if (!accept.types().contains(key.substring(dot + 1))) {
                throw new IllegalArgumentException(label.apply(key) + ": '" + key.substring(dot + 1)
                        + "' is not an accepted type (accept: " + accept + ")");
            }
        }
        InboxParameters p = TemplateParameters.bind(InboxParameters.class, given, label);
        String dataSource = p.dataSource();
        if (dataSource.isBlank()) {
            if (onlyDataSource == null) {
                throw new IllegalArgumentException(label.apply("dataSource") + ": required when "
                        + "gateway.datasources has none or several entries");
            }
            dataSource = onlyDataSource;
        }
        QueueName queue = queue(label.apply("queue"), p.queue());
        Map<String, Effect> effects = new LinkedHashMap<>();
        for (String type : accept.types()) {
            String sqlKey = given.containsKey(EFFECT_SQL + "." + type) ? EFFECT_SQL + "." + type : EFFECT_SQL;
            String endpointKey = given.containsKey(EFFECT_ENDPOINT + "." + type) ? EFFECT_ENDPOINT + "." + type
                    : EFFECT_ENDPOINT;
            String sql = blankToNull(sqlKey.equals(EFFECT_SQL) ? p.effectSql() : given.get(sqlKey));
            String endpoint = blankToNull(endpointKey.equals(EFFECT_ENDPOINT) ? p.effectEndpoint()
                    : given.get(endpointKey));
            if (sql == null && endpoint == null) {
                throw new IllegalArgumentException(label.apply(EFFECT_SQL) + ": accepted type '" + type
                        + "' has no effect; set effectSql or effectEndpoint (or effectSql." + type + ")");
            }
            effects.put(type, new Effect(sql, endpoint, sqlKey, endpointKey));
        }
        if (p.batchWait().compareTo(InboxParameters.MAX_BATCH_WAIT) > 0) {
            throw new IllegalArgumentException(label.apply("batchWait") + ": " + DurationText.format(p.batchWait())
                    + " is longer than " + DurationText.format(InboxParameters.MAX_BATCH_WAIT) + " (the batch's"
                    + " messages stay unacknowledged while it waits)");
        }
        int window = p.consumerWindowSize() != null ? p.consumerWindowSize()
                : p.batchSize() == 1 ? 0 : InboxParameters.DEFAULT_BATCH_WINDOW;
        List<Upcast> upcasts = upcasts(given, accept, label);
        return new InboxSettings(consumer, dataSource, queue, accept, effects, upcasts, p.requireRows(),
                TableName.parse(label.apply("inboxTable"), p.inboxTable()), p.maxPayloadBytes(),
                p.concurrentConsumers(), p.maxDeliveryAttempts(), p.maxBackoff(), blankToNull(p.sequence()),
                TableName.parse(label.apply("sequenceTable"), p.sequenceTable()),
                TableName.parse(label.apply("parkedTable"), p.parkedTable()), p.batchSize(), p.maxBatchBytes(), p.batchWait(), window,
                p.transactionMode());
    }

    /** The JMS session count as a string, for the endpoint URI. */
    public String concurrentConsumersText() {
        return Integer.toString(concurrentConsumers);
    }

    private static QueueName queue(String label, String value) {
        String[] parts = value.split("::", -1);
        if (parts.length > 2 || Arrays.stream(parts).anyMatch(s -> !QUEUE.matcher(s).matches())) {
            throw new IllegalArgumentException(label + ": '" + value + "' is not a queue name ("
                    + QUEUE.pattern() + ", or address::queue)");
        }
        return parts.length == 1 ? new QueueName(parts[0], parts[0]) : new QueueName(parts[0], parts[1]);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /**
     * Reads the {@code upcast.<Type>.<version>} parameters and checks their syntax and that they form chains: each
     * names an accepted type, a version from the lowest accepted one to below the current one, and a type with upcasts
     * has one for every version from its lowest accepted one up to its current one.
     *
     * @throws IllegalArgumentException naming the parameter (or the missing one)
     */
    private static List<Upcast> upcasts(Map<String, String> given, AcceptedTypes accept,
                                        UnaryOperator<String> label) {
        Map<String, TreeMap<Integer, Upcast>> byType = new HashMap<>();
        for (Map.Entry<String, String> e : given.entrySet()) {
            String key = e.getKey();
            if (!key.startsWith(UPCAST + ".")) {
                continue;
            }
            Matcher m = UPCAST_KEY.matcher(key);
            if (!m.matches()) {
                throw new IllegalArgumentException(label.apply(key) + ": not upcast.<Type>.<version> (an accepted"
                        + " type, a dot, the version it upcasts from, for example upcast.OrderCreated.1)");
            }
            String type = m.group(1);
            int from = Integer.parseInt(m.group(2));
            Set<Integer> versions = accept.versions().get(type);
            if (versions == null) {
                throw new IllegalArgumentException(label.apply(key) + ": '" + type + "' is not an accepted type"
                        + " (accept: " + accept + ")");
            }
            int lowest = versions.iterator().next();
            int highest = versions.stream().mapToInt(Integer::intValue).max().orElseThrow();
            if (from == highest) {
                throw new IllegalArgumentException(label.apply(key) + ": version " + from + " is the current version"
                        + " of " + type + " (the highest accepted, accept: " + accept + "); an upcast turns a version"
                        + " into the next one, up to the current");
            }
            if (from < lowest || from > highest) {
                throw new IllegalArgumentException(label.apply(key) + ": version " + from + " of " + type + " is not"
                        + " accepted (accept: " + accept + ")");
            }
            EventStep.parse(label.apply(key), e.getValue(), false);
            byType.computeIfAbsent(type, t -> new TreeMap<>())
                    .put(from, new Upcast(type, from, e.getValue().strip(), key));
        }
        List<Upcast> all = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, Upcast>> t : byType.entrySet()) {
            Set<Integer> versions = accept.versions().get(t.getKey());
            int highest = versions.stream().mapToInt(Integer::intValue).max().orElseThrow();
            for (int v = versions.iterator().next(); v < highest; v++) {
                if (!t.getValue().containsKey(v)) {
                    String missing = UPCAST + "." + t.getKey() + "." + v;
                    throw new IllegalArgumentException(label.apply(missing) + ": missing; version " + v + " of "
                            + t.getKey() + " must be upcast to reach the current version " + highest + " (accept: "
                            + accept + ", upcasts given from version " + t.getValue().keySet() + ")");
                }
            }
            all.addAll(t.getValue().values());
        }
        return List.copyOf(all);
    }
}
