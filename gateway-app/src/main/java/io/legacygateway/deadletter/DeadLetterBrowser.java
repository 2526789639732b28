package io.legacygateway.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.operator.ApiErrors;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;

/**
 * Reads the dead-letter address without consuming anything: its queues (core address and queue queries, which the
 * gateway's broker user may make on an embedded and a standalone broker alike) and their messages (a JMS
 * {@link QueueBrowser} on {@code <address>::<queue>}). Browsing never takes a message off a queue and never changes its
 * delivery count.
 */
final class DeadLetterBrowser {

    /** Property names of the dead-letter reason, written by {@code io.legacygateway.inbox.DeadLetterWriter}. */
    static final String ORIGINAL_ADDRESS = "_AMQ_ORIG_ADDRESS";
    static final String ORIGINAL_QUEUE = "_AMQ_ORIG_QUEUE";
    static final String REASON = "gw_dlq_reason";
    static final String REASON_CLASS = "gw_dlq_reason_class";
    static final String EXCEPTION = "gw_dlq_exception";
    static final String DELIVERY_COUNT = "gw_dlq_delivery_count";
    static final String CONSUMER = "gw_dlq_consumer";
    static final String FAILED_AT = "gw_dlq_failed_at";
    static final String ORIGINAL_MESSAGE_ID = "gw_dlq_original_message_id";
    static final String DLQ_PREFIX = "gw_dlq_";
    /** Set on a redelivered message (and kept if it is dead-lettered again). */
    static final String REDELIVERED_AT = "gw_redelivered_at";
    static final String REDELIVERED_BY = "gw_redelivered_by";
    static final String REDELIVERY_COUNT = "gw_redelivery_count";

    private static final Pattern ORIGINAL_ADDRESS_FILTER =
            Pattern.compile("\\s*" + ORIGINAL_ADDRESS + "\\s*=\\s*'([^']*)'\\s*");
    private static final int MAX_BODY_FOR_ID = 1024 * 1024;

    private final ConnectionFactory connectionFactory;
    private final String address;
    private final int browseLimit;
    private final ObjectMapper json = new ObjectMapper();

    DeadLetterBrowser(ConnectionFactory connectionFactory, String address, int browseLimit) {
        this.connectionFactory = connectionFactory;
        this.address = address;
        this.browseLimit = browseLimit;
    }

    String address() {
        return address;
    }

    /** What one look at the dead-letter queues found. */
    record Snapshot(List<DeadLetterQueue> queues, Map<String, List<DeadLetter>> letters,
                    Map<String, Boolean> truncated) {

        List<DeadLetter> all() {
            return letters.values().stream().flatMap(List::stream).toList();
        }
    }

    /** The queues on the dead-letter address, with their depths. */
    List<DeadLetterQueue> queues() throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            return queues(core(s));
        }
    }

    /**
     * Browses the queues the filter names (all when it names none) and returns the dead letters the filter selects,
     * in queue order, at most {@code browseLimit} read per queue.
     *
     * @throws ApiErrors.NotFound when the filter names a queue that is not on the dead-letter address
     */
    Snapshot snapshot(DeadLetterFilter filter, boolean withBody) throws JMSException {
        try (Connection c = connectionFactory.createConnection();
             Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            c.start();
            List<DeadLetterQueue> all = queues(core(s));
            List<DeadLetterQueue> selected = filter.queue() == null ? all
                    : all.stream().filter(q -> q.named(filter.queue())).toList();
            if (filter.queue() != null && selected.isEmpty()) {
                throw new ApiErrors.NotFound("no dead-letter queue '" + filter.queue() + "' on address " + address
                        + " (queues: " + all.stream().map(DeadLetterQueue::name).toList() + ")");
            }
            Map<String, List<DeadLetter>> letters = new LinkedHashMap<>();
            Map<String, Boolean> truncated = new LinkedHashMap<>();
            for (DeadLetterQueue q : selected) {
                List<DeadLetter> found = new ArrayList<>();
                int read = 0;
                try (QueueBrowser browser = s.createBrowser(s.createQueue(address + "::" + q.name()))) {
                    Enumeration<?> e = browser.getEnumeration();
                    while (e.hasMoreElements() && read < browseLimit) {
                        DeadLetter d = read(q.name(), (Message) e.nextElement(), withBody);
                        read++;
                        if (filter.matches(d)) {
                            found.add(d);
                        }
                    }
                    truncated.put(q.name(), e.hasMoreElements());
                }
                letters.put(q.name(), found);
            }
            return new Snapshot(selected, letters, truncated);
        }
    }

    private List<DeadLetterQueue> queues(ClientSession core) throws JMSException {
        try {
            ClientSession.AddressQuery query = core.addressQuery(SimpleString.of(address));
            if (!query.isExists()) {
                return List.of();
            }
            List<DeadLetterQueue> queues = new ArrayList<>();
            for (SimpleString name : query.getQueueNames()) {
                ClientSession.QueueQuery q = core.queueQuery(name);
                if (!q.isExists()) {
                    continue; // deleted in between
                }
                String original = null;
                if (q.getFilterString() != null) {
                    Matcher m = ORIGINAL_ADDRESS_FILTER.matcher(q.getFilterString().toString());
                    original = m.matches() ? m.group(1) : null;
                }
                queues.add(new DeadLetterQueue(name.toString(), address, original, q.getMessageCount()));
            }
            queues.sort(Comparator.comparing(DeadLetterQueue::name));
            return queues;
        } catch (ActiveMQException e) {
            JMSException j = new JMSException("cannot query the dead-letter address " + address + ": "
                    + e.getMessage());
            j.initCause(e);
            throw j;
        }
    }

    static ClientSession core(Session session) {
        if (session instanceof ActiveMQSession artemis) {
            return artemis.getCoreSession();
        }
        throw new IllegalStateException("dead-letter operations need an Artemis JMS session, got "
                + session.getClass().getName());
    }

    /** The operator's view of one message; never throws for odd properties (they are left out). */
    DeadLetter read(String queue, Message m, boolean withBody) throws JMSException {
        String reasonClass = string(m, REASON_CLASS);
        EnvelopeMessages.Headers envelope = EnvelopeMessages.read(m);
        String eventId = envelope.id();
        if (eventId == null) {
            eventId = bodyId(m);
        }
        Instant failedAt = instant(string(m, FAILED_AT));
        Instant timestamp = m.getJMSTimestamp() > 0 ? Instant.ofEpochMilli(m.getJMSTimestamp()) : null;
        Integer redeliveries = integer(m, REDELIVERY_COUNT);
        return new DeadLetter(m.getJMSMessageID(), queue, string(m, ORIGINAL_ADDRESS), string(m, ORIGINAL_QUEUE),
                eventId, envelope.type(), envelope.subject(), envelope.groupId(),
                reasonClass == null ? DeadLetter.BROKER : reasonClass,
                reasonClass == null ? DeadLetter.BROKER_REASON : string(m, REASON), string(m, EXCEPTION),
                integer(m, DELIVERY_COUNT), string(m, CONSUMER), failedAt, timestamp,
                failedAt != null ? failedAt : timestamp, string(m, ORIGINAL_MESSAGE_ID),
                redeliveries == null ? 0 : redeliveries, null, withBody ? body(m) : null);
    }

    private String bodyId(Message m) {
        try {
            if (m instanceof TextMessage text && text.getText() != null && text.getText().length() <= MAX_BODY_FOR_ID
                    && text.getText().stripLeading().startsWith("{")) {
                JsonNode id = json.readTree(text.getText()).get("id");
                return id != null && id.isTextual() && !id.asText().isBlank() ? id.asText() : null;
            }
        } catch (Exception notJson) {
            // a malformed body has no id to offer
        }
        return null;
    }

    private static String body(Message m) {
        try {
            if (m instanceof TextMessage text) {
                return text.getText();
            }
            if (m instanceof BytesMessage bytes) {
                bytes.reset();
                byte[] data = new byte[(int) bytes.getBodyLength()];
                bytes.readBytes(data);
                try {
                    return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
                } catch (CharacterCodingException e) {
                    return "(" + data.length + " bytes, not UTF-8)";
                }
            }
            return "(" + m.getClass().getSimpleName() + ": body not shown)";
        } catch (JMSException e) {
            return "(body unreadable: " + e.getMessage() + ")";
        }
    }

    static String string(Message m, String name) {
        try {
            Object v = m.getObjectProperty(name);
            return v == null ? null : v.toString();
        } catch (JMSException | RuntimeException e) {
            return null;
        }
    }

    static Integer integer(Message m, String name) {
        String v = string(m, name);
        try {
            return v == null ? null : Integer.valueOf(v.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Instant instant(String v) {
        try {
            return v == null ? null : Instant.parse(v);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
