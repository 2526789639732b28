package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.RepositoryDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is the entry point, not the manual (issue 11): at most 300 lines, the two commands at the top (the demo,
 * and all tests, which {@code .ci/run} runs), the guarantees, and one line per page of {@code docs/}.
 */
class ReadmeIsShortAndMapsTheDocsTest {

    static final String RUN_THE_DEMO = "mvn -B -q package -DskipTests && java -XX:SharedArchiveFile="
            + "gateway-demo/target/gateway-demo/app.jsa -jar gateway-demo/target/gateway-demo/gateway-demo.jar";
    static final String RUN_ALL_TESTS = "mvn -B verify";

    @Test
    void theReadmeHoldsTheTwoCommandsTheGuaranteesAndAMapOfEveryPage() throws IOException {
        List<String> readme = RepositoryDocs.lines("README.md");
        assertThat(readme).as("README.md lines").hasSizeLessThanOrEqualTo(300);

        int commands = readme.indexOf("## Two commands");
        assertThat(commands).as("## Two commands").isGreaterThan(0);
        assertThat(readme.subList(commands, readme.size())).as("the two commands, in this order")
                .containsSubsequence(RUN_THE_DEMO, RUN_ALL_TESTS);
        assertThat(readme).contains("## Guarantees", "## Documentation");
        assertThat(String.join("\n", RepositoryDocs.lines(".ci/run"))).as(".ci/run runs the README's test command")
                .contains(RUN_ALL_TESTS + " ");

        List<String> pages;
        try (Stream<Path> files = Files.list(RepositoryDocs.path("docs"))) {
            pages = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".md")).sorted().toList();
        }
        assertThat(pages).isNotEmpty();
        for (String page : pages) {
            assertThat(readme).as("README's map of docs/" + page)
                    .filteredOn(l -> l.startsWith("| [") && l.contains("](docs/" + page + ")")).hasSize(1);
        }
    }
}
