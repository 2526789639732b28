package io.legacygateway.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading is validation: a consumer gets a complete envelope of a known version or the reason it is not one. */
class EnvelopeCodecTest {

    private final EnvelopeCodec codec = new EnvelopeCodec();

    private static final String VALID = "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\","
            + "\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\",\"data\":{}}";

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{not json|not JSON",
            "[1,2]|not a JSON object",
            "{\"specversion\":\"0.3\"}|unsupported specversion '0.3'",
            "{\"specversion\":\"1.0\",\"eventversion\":1,\"source\":\"s\"}|required attribute 'id' is missing",
            "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"aggregatetype\":\"A\"}|eventversion must be an integer >= 1",
            "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":\"1\",\"aggregatetype\":\"A\"}|eventversion must be an integer >= 1",
            "{\"specversion\":\"1.0\",\"id\":7,\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\"}|attribute 'id' must be a non-empty string",
            "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\",\"time\":\"yesterday\"}|time is not an RFC 3339 timestamp",
            "{\"specversion\":\"1.0\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\",\"Bad-Name\":1}|attribute name 'Bad-Name' is not a CloudEvents name",
            "{\"specversion\":\"1.0\",\"envelopeversion\":2,\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\"}|unsupported envelopeversion 2",
            "{\"specversion\":\"1.0\",\"envelopeversion\":\"1\",\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\"}|envelopeversion must be an integer",
            "{\"specversion\":\"1.1\",\"envelopeversion\":1,\"id\":\"1\",\"source\":\"s\",\"type\":\"T\",\"subject\":\"a\",\"eventversion\":1,\"aggregatetype\":\"A\"}|unsupported specversion '1.1' (envelope version 1 uses 1.0)"
    })
    void rejectsWithTheReason(String json, String reason) {
        assertThatThrownBy(() -> codec.read(json)).isInstanceOf(MalformedEnvelopeException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void acceptsAMinimalEnvelope() throws Exception {
        assertThat(codec.read(VALID).type()).isEqualTo("T");
    }

    @Test
    void anEnvelopeWithoutEnvelopeVersionIsV1AndIsWrittenWithoutIt() throws Exception {
        EventEnvelope envelope = codec.read(VALID);
        assertThat(envelope.envelopeVersion()).isEqualTo(EnvelopeVersion.V1);
        assertThat(codec.write(envelope)).isEqualTo(VALID);
    }

    @Test
    void anExplicitEnvelopeVersionOneIsV1() throws Exception {
        String explicit = VALID.replace("\"specversion\":\"1.0\",", "\"specversion\":\"1.0\",\"envelopeversion\":1,");
        assertThat(codec.read(explicit).envelopeVersion()).isEqualTo(EnvelopeVersion.V1);
        assertThat(codec.read(explicit)).isEqualTo(codec.read(VALID));
    }

    @Test
    void aVersionIsStatedByItsNumberAndAbsenceMeansV1() {
        assertThat(EnvelopeVersion.stated(null)).contains(EnvelopeVersion.V1);
        assertThat(EnvelopeVersion.stated(1)).contains(EnvelopeVersion.V1);
        assertThat(EnvelopeVersion.stated(2)).isEmpty();
        assertThat(EnvelopeVersion.V1.attribute()).as("V1 writes no envelopeversion").isNull();
    }
}
