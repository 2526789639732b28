package io.legacygateway.adapters.sql;

import java.util.regex.Pattern;

/**
 * A table or column name taken from configuration.
 *
 * <p>Identifiers are the only part of a statement that is ever substituted into SQL text; every value is a {@code ?}
 * bind. An identifier is therefore accepted only if it matches {@link #PATTERN} (letters, digits and underscores, not
 * starting with a digit, at most 128 characters) and is always emitted quoted by the {@link Dialect}, so a name can
 * neither inject SQL nor collide with a reserved word.
 */
public final class SqlIdentifier {

    /** What a configured identifier may look like. Deliberately narrower than what databases allow. */
    public static final Pattern PATTERN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private SqlIdentifier() {
    }

    /**
     * @param property the configuration key the value came from, named in the error
     * @return the identifier, unchanged
     * @throws IllegalArgumentException naming the property when the value is not a safe identifier
     */
    public static String require(String property, String value) {
        if (value == null || !PATTERN.matcher(value).matches()) {
            throw new IllegalArgumentException(property + ": '" + value + "' is not a safe SQL identifier (expected "
                    + PATTERN.pattern() + ")");
        }
        return value;
    }

    /** True for a value that {@link #require} accepts. */
    public static boolean isSafe(String value) {
        return value != null && PATTERN.matcher(value).matches();
    }
}
