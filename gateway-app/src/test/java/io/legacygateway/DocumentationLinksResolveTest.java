package io.legacygateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the repository's Markdown files (the README, {@code docs/}, the folders' READMEs) reaches a
 * file that exists and, when it names an anchor, a heading of that file: a section moved between pages must take its
 * links along. Anchors are GitHub's: the heading in lower case, punctuation dropped, spaces as dashes, a repeated
 * heading suffixed {@code -1}, {@code -2}.
 */
class DocumentationLinksResolveTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

    @Test
    void everyRelativeLinkReachesAFileAndItsHeading() throws IOException {
        Path root = StandaloneArtemis.repositoryRoot();
        List<Path> pages;
        try (Stream<Path> files = Files.walk(root)) {
            pages = files.filter(p -> p.toString().endsWith(".md")).filter(p -> !ignored(root.relativize(p))).toList();
        }
        assertThat(pages).as("Markdown files found").extracting(p -> root.relativize(p).toString())
                .contains("README.md", "docs/relay.md");
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (String target : links(page)) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = root.relativize(page) + " -> " + target;
                if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (hash >= 0 && !anchors.computeIfAbsent(resolved, DocumentationLinksResolveTest::anchorsOf)
                        .contains(target.substring(hash + 1))) {
                    broken.add(where + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    /** Build output, and copies of third-party files kept as test resources. */
    private static boolean ignored(Path relative) {
        String p = relative.toString().replace('\\', '/');
        return p.startsWith(".git/") || p.startsWith("target/") || p.contains("/target/")
                || p.contains("/src/test/resources/");
    }

    private static List<String> links(Path page) {
        List<String> links = new ArrayList<>();
        boolean fence = false;
        for (String line : read(page)) {
            if (line.startsWith("```")) {
                fence = !fence;
            } else if (!fence) {
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    links.add(m.group(1));
                }
            }
        }
        return links;
    }

    private static Set<String> anchorsOf(Path page) {
        Set<String> anchors = new HashSet<>();
        if (!page.toString().endsWith(".md")) {
            return anchors;
        }
        Map<String, Integer> seen = new HashMap<>();
        boolean fence = false;
        for (String line : read(page)) {
            if (line.startsWith("```")) {
                fence = !fence;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (!fence && m.matches()) {
                String slug = m.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_ -]", "")
                        .replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum);
                anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return anchors;
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + page, e);
        }
    }
}
