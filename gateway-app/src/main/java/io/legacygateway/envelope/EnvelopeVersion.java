package io.legacygateway.envelope;

/**
 * Versions of the gateway's integration-event envelope. The envelope version is the contract between the relay and
 * every consumer: which CloudEvents attributes and extensions are present and how JMS properties mirror them. It is
 * independent of {@code eventversion}, the version of one event type's payload.
 *
 * <p>Each version has golden JSON fixtures under {@code src/test/resources/envelope/<version>/}.
 */
public enum EnvelopeVersion {
    /**
     * CloudEvents 1.0, JSON structured mode: required {@code specversion id source type}; {@code subject} (aggregate
     * id), {@code time}, {@code datacontenttype}, {@code data}; extensions {@code eventversion} (integer, always
     * present), {@code aggregatetype} (always present), {@code correlationid}, {@code causationid},
     * {@code traceparent} (when known).
     */
    V1("1.0");

    private final String specversion;

    EnvelopeVersion(String specversion) {
        this.specversion = specversion;
    }

    /** The CloudEvents {@code specversion} this envelope version uses. */
    public String specversion() {
        return specversion;
    }

    public static EnvelopeVersion current() {
        return V1;
    }
}
