package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository root holds the product's layout ({@code docs/architecture.md}, "Layout") and nothing else: a
 * helper's brief, scratch notes or logs left there ship to every user who clones it (issue 9 found
 * {@code BRIEF-FOR-ISSUE-5.md}).
 */
class RepositoryRootHoldsOnlyTheProductTest {

    private static final Set<String> LAYOUT = Set.of("pom.xml", "README.md", "routes", "gateway-app", "gateway-demo",
            "legacy-adapters", "gateway-bench", "artemis-config", "docker", "bench", "docs", ".ci", ".git", ".gitignore",
            ".gitattributes", ".mvn", "mvnw", "mvnw.cmd", "LICENSE", "NOTICE", "CONTRIBUTING.md", "CHANGELOG.md",
            // build output, the demo's data when run from the root, IDE folders: all ignored by .gitignore
            "target", "data", ".idea", ".vscode");

    @Test
    void theRootHoldsNothingButTheProductsLayout() throws IOException {
        Path root = Path.of(System.getProperty("gateway.repo.root", "..")).toAbsolutePath().normalize();
        assertThat(root.resolve("pom.xml")).exists();
        List<String> stray;
        try (Stream<Path> entries = Files.list(root)) {
            stray = entries.map(p -> p.getFileName().toString()).filter(n -> !LAYOUT.contains(n))
                    .filter(n -> !n.endsWith(".log") && !n.endsWith(".iml")).sorted().toList();
        }
        assertThat(stray).as("entries at the repository root that are not part of the product's layout").isEmpty();
    }
}
