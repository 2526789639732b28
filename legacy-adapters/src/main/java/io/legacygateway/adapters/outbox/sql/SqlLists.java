package io.legacygateway.adapters.outbox.sql;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/** Small pieces of SQL text and binds the outbox's statements share: IN lists in chunks, their markers, bounded text. */
public final class SqlLists {

    private static final int IN_LIST = 500;

    private SqlLists() {
    }

    /** The keys in chunks of at most 500, one IN list each (databases bound the number of binds of a statement). */
    public static List<List<String>> chunks(Collection<String> keys) {
        List<String> all = List.copyOf(keys);
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < all.size(); i += IN_LIST) {
            chunks.add(all.subList(i, Math.min(all.size(), i + IN_LIST)));
        }
        return chunks;
    }

    /** {@code n} bind markers: {@code ?, ?, ?}. */
    public static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** {@code s} cut to {@code max} characters, the last one an ellipsis when it was longer. */
    public static String truncate(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
