package io.legacygateway.reload;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.nio.file.Path;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link RouteEditContractTest} on MariaDB, with the tests' embedded Artemis. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class MariaDbRouteEditTest extends RouteEditContractTest {

    private static final Path FOLDER = temporaryFolder("mariadb");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, MariaDbRouteEditTest.class);
        routes(registry, FOLDER);
    }

    @Override
    Path folder() {
        return FOLDER;
    }
}
