package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnH2;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The default include pattern's shape ({@code file:routes/outbox/*.yaml,file:routes/inbox/*.yaml}) with a relay in the
 * outbox folder and no inbox folder at all, as in a deployment with relays only (the compose gateways): the gateway
 * starts with the relay. Before, Camel failed the startup with {@code NoSuchFileException: routes/inbox}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@OnH2
class MissingRouteFolderMatchesNothingTest {

    @DynamicPropertySource
    static void routesWithoutInboxFolder(DynamicPropertyRegistry registry) throws IOException {
        Path routes = Files.createTempDirectory("gateway-routes");
        routes.toFile().deleteOnExit();
        Path outbox = Files.createDirectory(routes.resolve("outbox"));
        Files.writeString(outbox.resolve("relay.yaml"), """
                - templatedRoute:
                    routeTemplateRef: outbox-relay
                    routeId: outbox-relay-only-folder
                    parameters:
                      - name: relay
                        value: only-folder
                      - name: dataSource
                        value: legacy
                      - name: destination
                        value: queue:only.folder
                """);
        outbox.resolve("relay.yaml").toFile().deleteOnExit();
        outbox.toFile().deleteOnExit();
        assertThat(routes.resolve("inbox")).doesNotExist();
        registry.add("camel.main.routes-include-pattern",
                () -> "file:" + routes + "/outbox/*.yaml,file:" + routes + "/inbox/*.yaml");
    }

    @Autowired
    CamelContext camel;

    @Test
    void theRelayOfTheExistingFolderRunsAndTheMissingFolderAddsNothing() {
        // the relay's timer route and its cycle route (RelayCycleRoute), nothing from the missing folder
        assertThat(camel.getRoutes()).extracting(Route::getRouteId)
                .containsExactlyInAnyOrder("outbox-relay-only-folder", "outbox-relay-only-folder-cycle");
        assertThat(camel.getRouteController().getRouteStatus("outbox-relay-only-folder").isStarted()).isTrue();
    }
}
