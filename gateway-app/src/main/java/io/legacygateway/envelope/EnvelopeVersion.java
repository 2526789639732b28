package io.legacygateway.envelope;

import java.util.Optional;

/**
 * Versions of the gateway's integration-event envelope. The envelope version is the contract between the relay and
 * every consumer: which CloudEvents attributes and extensions are present and how JMS properties mirror them. It is
 * independent of {@code eventversion}, the version of one event type's payload, and of {@code specversion}, the
 * CloudEvents version: two envelope versions may share one {@code specversion}.
 *
 * <p>An envelope states its version in the extension attribute {@value #ATTRIBUTE} (an integer), mirrored by the JMS
 * property {@link EnvelopeMessages#ENVELOPE_VERSION}; readers resolve the version from that attribute alone
 * ({@link #stated}). Decision: {@link #V1} is implied by the absence of the attribute and is written without it, so
 * that the V1 golden fixtures stay byte for byte what they were and every V1 message already on a queue or a
 * dead-letter queue reads as V1; an explicit {@code 1} reads as V1 too. Every later version writes the attribute. An
 * unknown value is a malformed envelope, which the inbox dead-letters, never an envelope read as the nearest known
 * version.
 *
 * <p>Each version has golden JSON fixtures under {@code src/test/resources/envelope/<version>/}.
 */
public enum EnvelopeVersion {
    /**
     * CloudEvents 1.0, JSON structured mode: required {@code specversion id source type}; {@code subject} (aggregate
     * id), {@code time}, {@code datacontenttype}, {@code data}; extensions {@code eventversion} (integer, always
     * present), {@code aggregatetype} (always present), {@code correlationid}, {@code causationid},
     * {@code traceparent} (when known); no {@value #ATTRIBUTE}.
     */
    V1(1, "1.0");

    /** The CloudEvents extension attribute that states the envelope version (absent: {@link #V1}). */
    public static final String ATTRIBUTE = "envelopeversion";

    private final int number;
    private final String specversion;

    EnvelopeVersion(int number, String specversion) {
        this.number = number;
        this.specversion = specversion;
    }

    /** The value of {@value #ATTRIBUTE} that names this version. */
    public int number() {
        return number;
    }

    /** The CloudEvents {@code specversion} this envelope version uses. */
    public String specversion() {
        return specversion;
    }

    /** What envelopes of this version write in {@value #ATTRIBUTE}: nothing ({@code null}) for {@link #V1}. */
    public Integer attribute() {
        return this == V1 ? null : number;
    }

    /**
     * The version an envelope states: {@link #V1} when it states none ({@code null}), empty when the number names no
     * known version.
     */
    public static Optional<EnvelopeVersion> stated(Integer number) {
        if (number == null) {
            return Optional.of(V1);
        }
        for (EnvelopeVersion v : values()) {
            if (v.number == number) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** The version the relay writes. */
    public static EnvelopeVersion current() {
        return V1;
    }
}
