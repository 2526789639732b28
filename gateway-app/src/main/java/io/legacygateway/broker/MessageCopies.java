package io.legacygateway.broker;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.Enumeration;
import java.util.function.Predicate;
import org.apache.activemq.artemis.api.core.ActiveMQBuffer;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;

/**
 * Copies of a message for another destination, made without interpreting its body: the inbox's dead-lettering
 * ({@code inbox.DeadLetterWriter}) and the redelivery of dead letters ({@code deadletter.DeadLetterRedelivery}).
 */
public final class MessageCopies {

    private MessageCopies() {
    }

    /**
     * A new message of {@code session} with the original's body: text stays text, bytes stay bytes, and any other type
     * travels as its raw bytes, never deserialised.
     */
    public static Message withBody(Session session, Message original) throws JMSException {
        if (original instanceof TextMessage text) {
            return session.createTextMessage(text.getText());
        }
        BytesMessage copy = session.createBytesMessage();
        if (original instanceof BytesMessage bytes) {
            bytes.reset();
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            copy.writeBytes(body);
        } else if (original instanceof ActiveMQMessage artemis) {
            ActiveMQBuffer raw = artemis.getCoreMessage().getReadOnlyBodyBuffer();
            byte[] body = new byte[raw.readableBytes()];
            raw.readBytes(body);
            copy.writeBytes(body);
        }
        return copy;
    }

    /**
     * Copies the original's properties (except those {@code leaveOut} names), its correlation id and JMS type. A
     * property the JMS API will not set again (reserved, or of an unsupported type) is left out.
     */
    public static void copyHeaders(Message original, Message copy, Predicate<String> leaveOut) throws JMSException {
        for (Enumeration<?> names = original.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (leaveOut.test(name)) {
                continue;
            }
            try {
                copy.setObjectProperty(name, original.getObjectProperty(name));
            } catch (JMSException | RuntimeException notCopyable) {
                // left out, as documented
            }
        }
        copy.setJMSCorrelationID(original.getJMSCorrelationID());
        copy.setJMSType(original.getJMSType());
    }
}
