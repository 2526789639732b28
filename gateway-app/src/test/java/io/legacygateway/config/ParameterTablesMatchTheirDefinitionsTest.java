package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.inbox.DeadLetterReason;
import io.legacygateway.inbox.InboxParameters;
import io.legacygateway.inbox.InboxSettings;
import io.legacygateway.relay.RelayParameters;
import io.legacygateway.relay.StepSettings;
import io.legacygateway.testsupport.StandaloneArtemis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The parameter tables of the docs are rendered from the parameters' one definition ({@link RelayParameters},
 * {@link OutboxColumn}, {@link InboxParameters}): each sits between {@code <!-- <block>:begin -->} and
 * {@code <!-- <block>:end -->} in README.md or a docs/*.md page, and this test fails, naming the first line that
 * differs, when it is not what the definitions render. {@code -Dgolden.update=true} rewrites the blocks instead:
 * {@code mvn -pl gateway-app verify -Dtest=ParameterTablesMatchTheirDefinitionsTest -Dgolden.update=true}, then
 * review the diff. A link in a definition names its heading's anchor alone; the rendered table gets the page it is on.
 */
class ParameterTablesMatchTheirDefinitionsTest {

    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    /** A Markdown link to a heading by its anchor alone: {@code ](#retention)}. */
    private static final Pattern ANCHOR_LINK = Pattern.compile("\\]\\(#([a-z0-9_-]+)\\)");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"parameters:relay", "columns:relay", "parameters:inbox"})
    void theTableBetweenTheMarkersIsTheRenderedOne(String block) throws IOException {
        String begin = "<!-- " + block + ":begin -->";
        String end = "<!-- " + block + ":end -->";
        List<Path> holding = new ArrayList<>();
        for (Path page : pages()) {
            if (Files.readAllLines(page, StandardCharsets.UTF_8).contains(begin)) {
                holding.add(page);
            }
        }
        assertThat(holding).as("the page with the line " + begin + " (README.md or docs/*.md)").hasSize(1);
        Path page = holding.get(0);
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        int from = lines.indexOf(begin);
        int to = lines.indexOf(end);
        assertThat(to).as(page + ": " + end + " after " + begin).isGreaterThan(from);
        assertThat(lines.lastIndexOf(begin)).as(page + ": " + begin + " once").isEqualTo(from);
        List<String> rendered = render(block).stream().map(line -> linked(line, page)).toList();
        List<String> documented = lines.subList(from + 1, to);
        if (UPDATE) {
            List<String> updated = new ArrayList<>(lines.subList(0, from + 1));
            updated.addAll(rendered);
            updated.addAll(lines.subList(to, lines.size()));
            Files.write(page, updated, StandardCharsets.UTF_8);
            return;
        }
        for (int i = 0; i < Math.max(rendered.size(), documented.size()); i++) {
            String want = i < rendered.size() ? rendered.get(i) : "(no line)";
            String have = i < documented.size() ? documented.get(i) : "(no line)";
            assertThat(have).as("%s line %d, in %s (rewrite with -Dgolden.update=true and review the diff; the text"
                    + " is in the parameter's definition)", page.getFileName(), from + 2 + i, block).isEqualTo(want);
        }
    }

    /** Carried over from the former README test: the inbox's dead-letter reasons are each explained somewhere. */
    @Test
    void everyDeadLetterReasonIsDocumented() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path page : pages()) {
            all.append(Files.readString(page, StandardCharsets.UTF_8));
        }
        for (DeadLetterReason r : DeadLetterReason.values()) {
            assertThat(all.toString()).as(r.name()).contains("`" + r.name() + "`");
        }
    }

    /**
     * The definitions link to a heading by its anchor alone ({@code [Retention](#retention)}), whichever page holds
     * it: the link gets the page's path when the heading is on another page than the table. A heading that no page
     * has fails the test.
     */
    private static String linked(String line, Path page) {
        Matcher m = ANCHOR_LINK.matcher(line);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String anchor = m.group(1);
            Path target = pagesIo().stream().filter(p -> anchors(p).contains(anchor)).findFirst()
                    .orElseThrow(() -> new AssertionError("no page has a heading for #" + anchor + ": " + line));
            String path = target.equals(page) || anchors(page).contains(anchor) ? ""
                    : page.getParent().relativize(target).toString().replace('\\', '/');
            m.appendReplacement(out, Matcher.quoteReplacement("](" + path + "#" + anchor + ")"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as dashes. */
    private static List<String> anchors(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith("#"))
                    .map(l -> l.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT)
                            .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> pagesIo() {
        try {
            return pages();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> render(String block) {
        return switch (block) {
            case "parameters:relay" -> {
                List<String> rows = table(TemplateParameters.definitions(RelayParameters.class));
                // the values that may replace a column, after the parameters of their own
                for (OutboxColumn c : OutboxColumn.values()) {
                    if (c.valueParameter() != null) {
                        rows.add(row("`" + c.valueParameter() + "`", "(none)", c.valueReference()));
                    }
                }
                // the parameter with a version in its name
                rows.add(row("`asVersion.<version>`", "(none)", StepSettings.AS_VERSION_DESCRIPTION));
                yield rows;
            }
            case "columns:relay" -> {
                List<String> rows = new ArrayList<>(List.of("| parameter | default column | required | meaning |",
                        "|---|---|---|---|"));
                for (OutboxColumn c : OutboxColumn.values()) {
                    rows.add(row("`" + c.parameter() + "`", "`" + c.defaultName() + "`", c.requirement().text(),
                            c.reference() + (c.valueParameter() == null ? ""
                                    : "; or parameter `" + c.valueParameter() + "`")));
                }
                yield rows;
            }
            case "parameters:inbox" -> {
                List<String> rows = table(TemplateParameters.definitions(InboxParameters.class));
                // the parameters with a type (and version) in their names, after the fixed ones
                rows.add(row("`upcast.<Type>.<version>`", "(none)", InboxSettings.UPCAST_DESCRIPTION));
                yield rows;
            }
            default -> throw new IllegalArgumentException(block);
        };
    }

    private static List<String> table(List<TemplateParameters.Definition> definitions) {
        List<String> rows = new ArrayList<>(List.of("| parameter | default | meaning |", "|---|---|---|"));
        definitions.forEach(d -> rows.add(row("`" + d.key() + "`", d.reference(), d.description())));
        return rows;
    }

    private static String row(String... cells) {
        StringBuilder row = new StringBuilder("|");
        for (String cell : cells) {
            row.append(cell.isEmpty() ? " |" : " " + cell + " |");
        }
        return row.toString();
    }

    private static List<Path> pages() throws IOException {
        Path root = StandaloneArtemis.repositoryRoot();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        Path docs = root.resolve("docs");
        if (Files.isDirectory(docs)) {
            try (Stream<Path> files = Files.list(docs)) {
                files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }
}
