package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * A database without LISTEN/NOTIFY: {@code wakeUp: NOTIFY} fails the relay's start naming the parameter, and
 * {@code triggers --notify} installs nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
abstract class WakeUpNotifyRefusedContractTest extends RelayTestSupport {

    @Autowired
    ApplicationContext context;

    @Test
    void wakeUpNotifyIsRefusedAtStartNamingTheParameter() {
        String name = unique("wakeup");
        assertThatThrownBy(() -> relay(name, "queue:" + name, Map.of("wakeUp", "NOTIFY")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox-relay '" + name + "' parameter 'wakeUp'")
                .hasMessageContaining("PostgreSQL");
        assertThat(factory.relay(name)).isEmpty();
    }

    @Test
    void theTriggersCommandRefusesNotify() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            status = GatewayCli.execute(new TriggersCommand(), List.of("--data-source=legacy", "--notify", "--install"),
                    CommandBeans.of(context), out);
        }
        assertThat(status).isEqualTo(1);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith("refused: --notify");
    }
}
