package io.legacygateway.envelope;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * An integration event as it travels on the broker: a CloudEvents event in JSON structured mode, of one
 * {@link EnvelopeVersion}. Serialised by {@link EnvelopeCodec}; attribute names are the CloudEvents ones. Its JMS
 * message is made and read by {@link EnvelopeMessages}.
 *
 * @param envelopeVersion the envelope version: gives {@code specversion} and {@value EnvelopeVersion#ATTRIBUTE}
 * @param id            the event id, unique per event; with a digest of the envelope, the broker's duplicate-detection id
 * @param source        the legacy system the event comes from (URI-reference)
 * @param type          event type, for example {@code OrderCreated}
 * @param subject       the aggregate id
 * @param time          when the event occurred (or, failing that, when its outbox row was written)
 * @param dataContentType {@code application/json} or {@code text/plain}
 * @param eventVersion  version of this event type's payload schema, at least 1
 * @param aggregateType the aggregate type, for example {@code Order}
 * @param data          the payload: a JSON value, or a JSON string for text payloads
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"specversion", "envelopeversion", "id", "source", "type", "subject", "time", "datacontenttype",
        "eventversion", "aggregatetype", "correlationid", "causationid", "traceparent", "data"})
public record EventEnvelope(
        @JsonIgnore EnvelopeVersion envelopeVersion,
        @JsonProperty("id") String id,
        @JsonProperty("source") String source,
        @JsonProperty("type") String type,
        @JsonProperty("subject") String subject,
        @JsonProperty("time") Instant time,
        @JsonProperty("datacontenttype") String dataContentType,
        @JsonProperty("eventversion") Integer eventVersion,
        @JsonProperty("aggregatetype") String aggregateType,
        @JsonProperty("correlationid") String correlationId,
        @JsonProperty("causationid") String causationId,
        @JsonProperty("traceparent") String traceparent,
        @JsonProperty("data") JsonNode data) {

    public static final String JSON = "application/json";
    public static final String TEXT = "text/plain";

    public EventEnvelope {
        Objects.requireNonNull(envelopeVersion, "envelopeVersion");
    }

    /** The CloudEvents {@code specversion} of this envelope's version. */
    @JsonProperty("specversion")
    public String specVersion() {
        return envelopeVersion.specversion();
    }

    /** What the envelope states in {@value EnvelopeVersion#ATTRIBUTE}: nothing for {@link EnvelopeVersion#V1}. */
    @JsonProperty("envelopeversion")
    Integer statedEnvelopeVersion() {
        return envelopeVersion.attribute();
    }

    /** The ordering key: one group per aggregate ({@code JMSXGroupID}). */
    public String groupId() {
        return aggregateType + ":" + subject;
    }
}
