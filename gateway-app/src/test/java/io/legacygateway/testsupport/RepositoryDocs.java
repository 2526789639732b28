package io.legacygateway.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The repository's documentation as tests read it: the README and the pages under {@code docs/}, and the regions of a
 * page between marker lines {@code <!-- name:begin -->} and {@code <!-- name:end -->} (the parameter tables, which are
 * meant to be generated from the code).
 */
public final class RepositoryDocs {

    private RepositoryDocs() {
    }

    /** The lines of a documentation file, by its path from the repository root ({@code docs/relay.md}). */
    public static List<String> lines(String page) {
        try {
            return Files.readAllLines(path(page));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + page, e);
        }
    }

    /** The path of a documentation file, by its path from the repository root. */
    public static Path path(String page) {
        return StandaloneArtemis.repositoryRoot().resolve(page);
    }

    /**
     * The lines strictly between {@code <!-- name:begin -->} and {@code <!-- name:end -->}; fails naming the page and
     * the marker when either is missing or they come in the wrong order.
     */
    public static List<String> marked(String page, String name) {
        List<String> lines = lines(page);
        int begin = lines.indexOf("<!-- " + name + ":begin -->");
        int end = lines.indexOf("<!-- " + name + ":end -->");
        if (begin < 0 || end < begin) {
            throw new AssertionError(page + " has no region between <!-- " + name + ":begin --> and <!-- " + name
                    + ":end -->");
        }
        return lines.subList(begin + 1, end);
    }
}
