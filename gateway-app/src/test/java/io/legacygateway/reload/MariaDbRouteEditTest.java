package io.legacygateway.reload;

import io.legacygateway.testsupport.OnMariaDb;
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
@OnMariaDb
class MariaDbRouteEditTest extends RouteEditContractTest {

    private static final Path FOLDER = temporaryFolder("mariadb");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        routes(registry, FOLDER);
    }

    @Override
    Path folder() {
        return FOLDER;
    }
}
