package io.legacygateway.envelope;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

/**
 * The one mapping between an {@link EventEnvelope} and its JMS message, used by the relay, the dead-letter tools, the
 * demo and the tests. The body is the envelope's JSON text; the JMS properties mirror some of its attributes so that
 * brokers and consumers can route, group, dedupe and select without parsing the body. The body stays the authority:
 * consumers validate it, not these properties.
 *
 * <p>A message of {@link #toMessage} carries {@link #GROUP_ID}, {@link #ID}, {@link #TYPE}, {@link #SOURCE},
 * {@link #SUBJECT}, {@link #EVENT_VERSION}, {@link #AGGREGATE_TYPE}, the correlation id as {@code JMSCorrelationID}
 * when the envelope has one, and {@link #ENVELOPE_VERSION} exactly when the body states
 * {@value EnvelopeVersion#ATTRIBUTE} (not for {@link EnvelopeVersion#V1}, which is implied by absence); plus
 * {@link #DUPLICATE_ID} and {@link #RELAY} when the sender gives them. The relay adds {@link #TRACEPARENT} while traces
 * are on.
 */
public final class EnvelopeMessages {

    /** Artemis duplicate detection: the broker drops a second message with the same value on one address. */
    public static final String DUPLICATE_ID = "_AMQ_DUPL_ID";
    /** Message grouping: one consumer at a time per aggregate, in send order. */
    public static final String GROUP_ID = "JMSXGroupID";
    public static final String ID = "ce_id";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String SUBJECT = "ce_subject";
    public static final String EVENT_VERSION = "ce_eventversion";
    public static final String AGGREGATE_TYPE = "ce_aggregatetype";
    /** The envelope version the body states (integer); absent for {@link EnvelopeVersion#V1}. */
    public static final String ENVELOPE_VERSION = "ce_" + EnvelopeVersion.ATTRIBUTE;
    /** Which relay published the message (diagnostics and reconciliation). */
    public static final String RELAY = "gw_relay";
    /**
     * The W3C trace context of the relay's {@code publish} span, set by the relay only while traces are on
     * (docs/operations.md#traces); the inbox continues the trace from it. Not the envelope's {@code traceparent}
     * attribute, which stays the producer's (the outbox row's).
     */
    public static final String TRACEPARENT = "traceparent";

    private EnvelopeMessages() {
    }

    /**
     * The text message of an envelope, not sent yet: body {@code json}, properties as described above.
     *
     * @param json        the envelope's JSON text, as {@link EnvelopeCodec#write} gave it (or deliberately other text,
     *                    in a test of a malformed body)
     * @param duplicateId the broker's duplicate-detection id; {@code null} sends without one
     * @param relay       the publishing relay's name; {@code null} for messages no relay sent
     */
    public static TextMessage toMessage(Session session, EventEnvelope envelope, String json, String duplicateId,
                                        String relay) throws JMSException {
        TextMessage m = session.createTextMessage(json);
        if (duplicateId != null) {
            m.setStringProperty(DUPLICATE_ID, duplicateId);
        }
        m.setStringProperty(GROUP_ID, envelope.groupId());
        m.setStringProperty(ID, envelope.id());
        m.setStringProperty(TYPE, envelope.type());
        m.setStringProperty(SOURCE, envelope.source());
        m.setStringProperty(SUBJECT, envelope.subject());
        m.setIntProperty(EVENT_VERSION, envelope.eventVersion());
        m.setStringProperty(AGGREGATE_TYPE, envelope.aggregateType());
        Integer stated = envelope.envelopeVersion().attribute();
        if (stated != null) {
            m.setIntProperty(ENVELOPE_VERSION, stated);
        }
        if (relay != null) {
            m.setStringProperty(RELAY, relay);
        }
        if (envelope.correlationId() != null) {
            m.setJMSCorrelationID(envelope.correlationId());
        }
        return m;
    }

    /**
     * The envelope properties a message carries, for display, logs and filters. Never throws: a property that is
     * missing, or that the message cannot give as the expected type (the sender was not the relay), is {@code null}.
     * Not validated: only {@link EnvelopeCodec#read} of the body says whether the message holds an envelope.
     */
    public static Headers read(Message message) {
        return new Headers(string(message, ID), string(message, TYPE), string(message, SOURCE),
                string(message, SUBJECT), string(message, AGGREGATE_TYPE), integer(message, EVENT_VERSION),
                string(message, GROUP_ID), integer(message, ENVELOPE_VERSION));
    }

    /**
     * The envelope properties of one message, each {@code null} when absent or unreadable.
     *
     * @param envelopeVersion the stated {@value EnvelopeVersion#ATTRIBUTE}; {@code null} means V1 (see
     *                        {@link EnvelopeVersion#stated})
     */
    public record Headers(String id, String type, String source, String subject, String aggregateType,
                          Integer eventVersion, String groupId, Integer envelopeVersion) {
    }

    private static String string(Message m, String name) {
        try {
            Object v = m.getObjectProperty(name);
            return v == null ? null : v.toString();
        } catch (JMSException | RuntimeException e) {
            return null;
        }
    }

    private static Integer integer(Message m, String name) {
        String v = string(m, name);
        try {
            return v == null ? null : Integer.valueOf(v.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
