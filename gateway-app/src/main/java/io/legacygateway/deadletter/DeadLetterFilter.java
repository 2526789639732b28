package io.legacygateway.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.legacygateway.command.GatewayApiClient;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which dead letters an operator means. Every condition that is set must hold; an empty filter selects every dead
 * letter. Values are compared in Java after browsing, never spliced into a broker selector.
 *
 * <p>The one place that knows the filter's fields: the REST query, the redelivery body's {@code filter}, the options
 * of {@code dlq show|redeliver} ({@code DeadLettersCommand.Selection}) and the JMX {@code filter} text are all read
 * by {@link #parse(Map)}, under {@link #KEYS}, with the descriptions below.
 *
 * @param queue       a dead-letter queue ({@code DLQ.sales.orders}) or the original address it is named after
 *                    ({@code sales.orders})
 * @param type        event type ({@code ce_type}), exactly
 * @param subject     aggregate id ({@code ce_subject}), exactly
 * @param reasonClass {@code gw_dlq_reason_class} ({@code BUSINESS_RULE} …, or {@code BROKER}), ignoring case
 * @param reason      text contained in the reason, ignoring case
 * @param consumer    the inbox consumer that dead-lettered it ({@code gw_dlq_consumer})
 * @param from        dead-lettered at or after ({@link DeadLetter#deadLetteredAt()})
 * @param to          dead-lettered before
 * @param ids         JMS message ids of dead letters or event ids ({@code ce_id}); any of them
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record DeadLetterFilter(String queue, String type, String subject, String reasonClass, String reason,
                               String consumer, Instant from, Instant to, Set<String> ids) {

    public static final String QUEUE = "queue";
    public static final String TYPE = "type";
    public static final String SUBJECT = "subject";
    public static final String REASON_CLASS = "reasonClass";
    public static final String REASON = "reason";
    public static final String CONSUMER = "consumer";
    public static final String FROM = "from";
    public static final String TO = "to";
    public static final String IDS = "ids";
    /** The keys of {@link #parse(Map)}, as REST query parameters, CLI options and the JMX filter text use them. */
    public static final List<String> KEYS = List.of(QUEUE, TYPE, SUBJECT, REASON_CLASS, REASON, CONSUMER, FROM, TO,
            IDS);

    static final String QUEUE_TEXT = "on this dead-letter queue (DLQ.x or x)";
    static final String TYPE_TEXT = "of this event type";
    static final String SUBJECT_TEXT = "of this subject";
    static final String REASON_CLASS_TEXT = "dead-lettered for this class of reason (BUSINESS_RULE, ..., BROKER)";
    static final String REASON_TEXT = "whose reason contains this text";
    static final String CONSUMER_TEXT = "dead-lettered by this inbox consumer";
    static final String FROM_TEXT = "dead-lettered at or after this instant";
    static final String TO_TEXT = "dead-lettered before this instant";
    static final String IDS_TEXT = "these JMS message ids or event ids";
    /** The filter as one text ({@link #parse(String)}), as the JMX operations take it. */
    static final String TEXT_FORM = "key=value&...: type, subject, reasonClass, reason, consumer, from, to, ids";

    public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null, null, null, null,
            Set.of());

    public DeadLetterFilter {
        ids = ids == null ? Set.of() : Collections.unmodifiableSet(new LinkedHashSet<>(ids));
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("filter: 'from' (" + from + ") must be before 'to' (" + to + ")");
        }
    }

    /**
     * Reads a filter from text keys ({@link #KEYS}); blank values are ignored; {@code ids} is comma-separated; times
     * are ISO-8601 instants ({@code 2026-05-01T10:00:00Z}) or dates (midnight UTC).
     *
     * @throws IllegalArgumentException naming the key that is unknown or whose value is not valid
     */
    public static DeadLetterFilter parse(Map<String, String> values) {
        Map<String, String> v = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("filter: unknown key '" + key + "'; known: " + KEYS);
            }
            if (value != null && !value.isBlank()) {
                v.put(key, value.strip());
            }
        });
        Set<String> ids = v.containsKey(IDS) ? Arrays.stream(v.get(IDS).split(",")).map(String::strip)
                .filter(s -> !s.isEmpty()).collect(Collectors.toCollection(LinkedHashSet::new)) : Set.of();
        return new DeadLetterFilter(v.get(QUEUE), v.get(TYPE), v.get(SUBJECT), v.get(REASON_CLASS), v.get(REASON),
                v.get(CONSUMER), instant(FROM, v.get(FROM)), instant(TO, v.get(TO)), ids);
    }

    /**
     * Reads {@code key=value} pairs separated by {@code &} (the form the JMX operations take, e.g.
     * {@code type=OrderCreated&reasonClass=BUSINESS_RULE}); blank text is the empty filter.
     */
    public static DeadLetterFilter parse(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text != null && !text.isBlank()) {
            for (String pair : text.split("&")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("filter: '" + pair.strip() + "' is not key=value; keys: " + KEYS);
                }
                values.put(pair.substring(0, eq).strip(), pair.substring(eq + 1));
            }
        }
        return parse(values);
    }

    /** The same filter for another queue (the request's {@code queue} field next to its filter). */
    public DeadLetterFilter withQueue(String otherQueue) {
        return new DeadLetterFilter(otherQueue, type, subject, reasonClass, reason, consumer, from, to, ids);
    }

    /** The same filter with more ids (the request's {@code ids} field next to its filter). */
    public DeadLetterFilter withIds(Set<String> more) {
        Set<String> all = new LinkedHashSet<>(ids);
        all.addAll(more);
        return new DeadLetterFilter(queue, type, subject, reasonClass, reason, consumer, from, to, all);
    }

    /** Whether the dead letter meets every condition except {@link #queue} (the caller picks the queues). */
    public boolean matches(DeadLetter d) {
        return (type == null || type.equals(d.eventType()))
                && (subject == null || subject.equals(d.subject()))
                && (reasonClass == null || reasonClass.equalsIgnoreCase(d.reasonClass()))
                && (reason == null || (d.reason() != null && d.reason().toLowerCase(Locale.ROOT)
                        .contains(reason.toLowerCase(Locale.ROOT))))
                && (consumer == null || consumer.equals(d.consumer()))
                && (from == null || (d.deadLetteredAt() != null && !d.deadLetteredAt().isBefore(from)))
                && (to == null || (d.deadLetteredAt() != null && d.deadLetteredAt().isBefore(to)))
                && (ids.isEmpty() || ids.contains(d.messageId()) || (d.eventId() != null && ids.contains(d.eventId())));
    }

    /** The conditions that are set, under {@link #KEYS}, as {@link #parse(Map)} reads them. */
    public Map<String, String> parameters() {
        return GatewayApiClient.parameters(QUEUE, queue, TYPE, type, SUBJECT, subject, REASON_CLASS, reasonClass,
                REASON, reason, CONSUMER, consumer, FROM, Objects.toString(from, null), TO, Objects.toString(to, null),
                IDS, ids.isEmpty() ? null : String.join(",", ids));
    }

    /** The filter as {@code key=value&…}, for the audit trail. */
    public String describe() {
        String text = parameters().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("&"));
        return text.isEmpty() ? "(all)" : text;
    }

    private static Instant instant(String key, String value) {
        if (value == null) {
            return null;
        }
        try {
            return value.contains("T") ? Instant.parse(value) : LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC)
                    .toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("filter: '" + key + "' = '" + value + "' is not an ISO-8601 instant "
                    + "(2026-05-01T10:00:00Z) or date (2026-05-01)");
        }
    }
}
