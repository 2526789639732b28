package io.legacygateway.inbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.legacygateway.adapters.inbox.InboxStore;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.envelope.MalformedEnvelopeException;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns a JMS message into an {@link InboundMessage} or refuses it with a {@link DeadLetterException}, before any
 * database work: size first (before parsing; a text body larger than the limit by the size the broker gives is
 * refused without being read, {@link BrokerBodySize}), then JSON and the CloudEvents attributes ({@link EnvelopeCodec#read}),
 * then type and version against {@link AcceptedTypes}, then the sequence when the gate is on. Only text and bytes
 * (UTF-8) bodies are read; an ObjectMessage is refused without being deserialised. The JMS properties are not
 * trusted: the body is the authority.
 */
final class InboundMessageReader {

    private final EnvelopeCodec codec;
    private final AcceptedTypes accept;
    private final int maxPayloadBytes;
    private final String sequencePath;

    InboundMessageReader(EnvelopeCodec codec, AcceptedTypes accept, int maxPayloadBytes, String sequencePath) {
        this.codec = codec;
        this.accept = accept;
        this.maxPayloadBytes = maxPayloadBytes;
        this.sequencePath = sequencePath;
    }

    InboundMessage read(Message message) throws JMSException {
        String body = body(message);
        EventEnvelope envelope;
        try {
            envelope = codec.read(body);
        } catch (MalformedEnvelopeException e) {
            throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, e.getMessage(), e);
        }
        if (envelope.id().length() > InboxStore.MAX_MESSAGE_ID_LENGTH) {
            throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, "id is longer than "
                    + InboxStore.MAX_MESSAGE_ID_LENGTH + " characters");
        }
        if (!accept.accepts(envelope.type(), envelope.eventVersion())) {
            throw new DeadLetterException(DeadLetterReason.UNKNOWN_TYPE, "type " + envelope.type() + " version "
                    + envelope.eventVersion() + " is not accepted by this consumer (accept: " + accept + ")");
        }
        return new InboundMessage(envelope, body, sequencePath == null ? null : sequence(envelope));
    }

    private String body(Message message) throws JMSException {
        if (message instanceof TextMessage text) {
            // decided from the size the broker sent with it when that suffices: a text is not read whole to be refused
            long onBroker = BrokerBodySize.of(message);
            if (BrokerBodySize.leastTextChars(onBroker) > maxPayloadBytes) {
                throw new DeadLetterException(DeadLetterReason.PAYLOAD_TOO_LARGE, "body of " + onBroker
                        + " bytes on the broker (at least " + BrokerBodySize.leastTextChars(onBroker)
                        + " characters) exceeds maxPayloadBytes " + maxPayloadBytes + "; not read");
            }
            String s = text.getText();
            if (s == null) {
                throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, "empty body");
            }
            // UTF-8 takes at most 3 bytes per UTF-16 char: a short text needs no count
            if (s.length() > maxPayloadBytes
                    || (s.length() * 3L > maxPayloadBytes && utf8Length(s) > maxPayloadBytes)) {
                throw tooLarge(utf8Length(s));
            }
            return s;
        }
        if (message instanceof BytesMessage bytes) {
            long length = bytes.getBodyLength();
            if (length > maxPayloadBytes) {
                throw tooLarge(length);
            }
            byte[] b = new byte[(int) length];
            bytes.readBytes(b);
            try {
                return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, "body is not UTF-8", e);
            }
        }
        throw new DeadLetterException(DeadLetterReason.UNSUPPORTED_MESSAGE, message.getClass().getSimpleName()
                .replace("ActiveMQ", "") + " is not read: only text or UTF-8 bytes messages carry envelopes");
    }

    private DeadLetterException tooLarge(long length) {
        return new DeadLetterException(DeadLetterReason.PAYLOAD_TOO_LARGE, "body of " + length
                + " bytes exceeds maxPayloadBytes " + maxPayloadBytes);
    }

    private Long sequence(EventEnvelope e) {
        if (e.groupId().length() > InboxStore.MAX_AGGREGATE_LENGTH) {
            throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, "aggregate key " + e.groupId()
                    + " is longer than " + InboxStore.MAX_AGGREGATE_LENGTH + " characters (sequence gate)");
        }
        JsonNode n = EnvelopeValues.node(e, sequencePath);
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < 1) {
            throw new DeadLetterException(DeadLetterReason.MALFORMED_ENVELOPE, sequencePath
                    + " must be an integer >= 1 (sequence gate), is " + n);
        }
        return n.longValue();
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
