package io.legacygateway.envelope;

/**
 * JMS message properties that travel with every envelope, so that brokers and consumers can route, group, dedupe and
 * select without parsing the body. The body stays the authority: consumers validate it, not these properties.
 */
public final class MessageProperties {

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
    /** Which relay published the message (diagnostics and reconciliation). */
    public static final String RELAY = "gw_relay";

    private MessageProperties() {
    }
}
