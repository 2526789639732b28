package io.legacygateway.deadletter;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One message on a dead-letter queue, as an operator sees it: where it came from, why it is there, which event it
 * carries, and (when asked) what the consumer's inbox says about it.
 *
 * @param messageId         the dead letter's JMS message id ({@code ID:…}); selects it for redelivery
 * @param queue             the dead-letter queue ({@code DLQ.<address>} on the dead-letter address)
 * @param originalAddress   {@code _AMQ_ORIG_ADDRESS}: where it is redelivered to; {@code null} when unknown
 * @param originalQueue     {@code _AMQ_ORIG_QUEUE}: the queue it was consumed from
 * @param eventId           the CloudEvents id ({@code ce_id}, else the body's {@code id}): the inbox's message id
 * @param eventType         {@code ce_type}
 * @param subject           {@code ce_subject}: the aggregate id
 * @param groupId           {@code JMSXGroupID}
 * @param reasonClass       {@code gw_dlq_reason_class}, or {@value #BROKER} when the broker moved it without a reason
 * @param reason            {@code gw_dlq_reason}, or a sentence saying that the broker moved it
 * @param exception         {@code gw_dlq_exception}
 * @param deliveryCount     {@code gw_dlq_delivery_count}: the delivery on which it was dead-lettered
 * @param consumer          {@code gw_dlq_consumer}: the inbox consumer that dead-lettered it
 * @param failedAt          {@code gw_dlq_failed_at}
 * @param brokerTimestamp   the message's JMS timestamp (for a message the broker moved: when it was first sent)
 * @param deadLetteredAt    {@code failedAt}, else {@code brokerTimestamp}: what filters, groups and the replay
 *                          horizon use
 * @param originalMessageId {@code gw_dlq_original_message_id}
 * @param redeliveryCount   {@code gw_redelivery_count}: how often it was redelivered from a dead-letter queue before
 * @param inbox             the consumer's inbox about this event, {@code null} unless asked
 * @param body              the body (text, or a note for binary bodies), {@code null} unless asked
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeadLetter(String messageId, String queue, String originalAddress, String originalQueue,
                         String eventId, String eventType, String subject, String groupId, String reasonClass,
                         String reason, String exception, Integer deliveryCount, String consumer, Instant failedAt,
                         Instant brokerTimestamp, Instant deadLetteredAt, String originalMessageId,
                         int redeliveryCount, InboxStatus inbox, String body) {

    /** Reason class of a dead letter without the gateway's reason properties: the broker moved it. */
    public static final String BROKER = "BROKER";
    /** Reason of such a dead letter. */
    public static final String BROKER_REASON = "moved by the broker (max-delivery-attempts reached, or an "
            + "administrator's move); no gateway reason";

    public DeadLetter withInbox(InboxStatus status) {
        return new DeadLetter(messageId, queue, originalAddress, originalQueue, eventId, eventType, subject, groupId,
                reasonClass, reason, exception, deliveryCount, consumer, failedAt, brokerTimestamp, deadLetteredAt,
                originalMessageId, redeliveryCount, status, body);
    }

    public DeadLetter withoutBody() {
        return body == null ? this : new DeadLetter(messageId, queue, originalAddress, originalQueue, eventId,
                eventType, subject, groupId, reasonClass, reason, exception, deliveryCount, consumer, failedAt,
                brokerTimestamp, deadLetteredAt, originalMessageId, redeliveryCount, inbox, null);
    }
}
