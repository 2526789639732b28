package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one duration parser of template parameters: every documented form, and no text read as a silent 0. */
class DurationTextTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({"500ms, 500", "30s, 30000", "5m, 300000", "2h, 7200000", "7d, 604800000", "1h30m, 5400000",
            "1m30s500ms, 90500", "PT30S, 30000", "PT1M30S, 90000", "P1D, 86400000", "30000, 30000", "' 30s ', 30000"})
    void everyDocumentedFormIsParsed(String text, long millis) {
        assertThat(DurationText.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"", "soon", "30x", "1.5s", "30 s", "30S", "5M", "1s1h", "10min", "PT", "-5s"})
    void anythingElseIsAnErrorNeverZero(String text) {
        assertThatThrownBy(() -> DurationText.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A template with one duration parameter. */
    record Backoff(@TemplateParameter("pause") @DefaultValue("30s") Duration maxBackoff) {
    }

    @Test
    void aTemplateParameterMustBePositiveAndTheErrorNamesItAndTheForms() {
        assertThatThrownBy(() -> TemplateParameters.bind(Backoff.class, Map.of("maxBackoff", "0s"),
                k -> "parameter '" + k + "'"))
                .hasMessageContaining("parameter 'maxBackoff': '0s'").hasMessageContaining(DurationText.FORMS);
        assertThat(TemplateParameters.bind(Backoff.class, Map.of(), k -> k).maxBackoff())
                .isEqualTo(Duration.ofSeconds(30));
    }
}
