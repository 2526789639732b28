package io.legacygateway.envelope;

/**
 * Tells whether a text is one JSON value written exactly as {@link EnvelopeCodec} would write it again after parsing
 * it: then the relay copies the payload into the envelope as it is, in one pass that reads each character once,
 * instead of parsing and writing it token by token (the relay's hot path; the envelope's text must not change, the
 * broker's duplicate id digests it).
 *
 * <p>Canonical means: strict RFC 8259 JSON with no whitespace outside strings and nothing after the value; strings
 * escaped as Jackson escapes them (only {@code \"}, {@code \\}, {@code \b \t \f \n \r} and {@code \}{@code u00XX} in
 * upper-case hex for the other control characters; every other character raw); integers other than {@code -0}; numbers
 * with a fraction in the plain notation {@link java.math.BigDecimal#toString} gives them (no exponent, not a negative
 * zero, fewer than six zeros after the point before the first digit when the integer part is zero). Anything else
 * answers {@code false}, valid or not: the caller then takes the token-by-token way, which also reports invalid JSON.
 * Over-long texts, numbers and nestings answer {@code false} too, so that the parser's own limits still apply.
 */
final class CanonicalJson {

    /** Longer texts take the parser's way (its limits on string and number length stay the only ones). */
    static final int MAX_LENGTH = 1 << 20;
    private static final int MAX_DEPTH = 500;
    private static final int MAX_NUMBER_CHARS = 100;
    /** Zeros after the point that {@code BigDecimal.toString} still writes in plain notation (adjusted exponent -6). */
    private static final int MAX_LEADING_FRACTION_ZEROS = 5;

    private final String s;
    private int i;

    private CanonicalJson(String s) {
        this.s = s;
    }

    static boolean isCanonical(String text) {
        if (text.isEmpty() || text.length() > MAX_LENGTH) {
            return false;
        }
        CanonicalJson scan = new CanonicalJson(text);
        return scan.value(0) && scan.i == text.length();
    }

    private boolean value(int depth) {
        if (i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> depth < MAX_DEPTH && object(depth + 1);
            case '[' -> depth < MAX_DEPTH && array(depth + 1);
            case '"' -> string();
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> (c == '-' || (c >= '0' && c <= '9')) && number();
        };
    }

    private boolean object(int depth) {
        i++; // {
        if (at('}')) {
            i++;
            return true;
        }
        while (true) {
            if (!at('"') || !string() || !at(':')) {
                return false;
            }
            i++;
            if (!value(depth)) {
                return false;
            }
            if (at('}')) {
                i++;
                return true;
            }
            if (!at(',')) {
                return false;
            }
            i++;
        }
    }

    private boolean array(int depth) {
        i++; // [
        if (at(']')) {
            i++;
            return true;
        }
        while (true) {
            if (!value(depth)) {
                return false;
            }
            if (at(']')) {
                i++;
                return true;
            }
            if (!at(',')) {
                return false;
            }
            i++;
        }
    }

    private boolean string() {
        int n = s.length();
        i++; // opening quote
        while (i < n) {
            char c = s.charAt(i++);
            if (c == '"') {
                return true;
            }
            if (c < 0x20) {
                return false; // not JSON
            }
            if (c == '\\') {
                if (i >= n) {
                    return false;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', 'b', 't', 'f', 'n', 'r' -> {
                    }
                    case 'u' -> {
                        // written so only for a control character without a short escape, hex in upper case
                        if (i + 4 > n || s.charAt(i) != '0' || s.charAt(i + 1) != '0') {
                            return false;
                        }
                        int high = s.charAt(i + 2);
                        int low = s.charAt(i + 3);
                        boolean upperHex = (low >= '0' && low <= '9') || (low >= 'A' && low <= 'F');
                        if (!upperHex || (high != '0' && high != '1')) {
                            return false;
                        }
                        int code = (high - '0') * 16 + (low <= '9' ? low - '0' : low - 'A' + 10);
                        if (code == 0x08 || code == 0x09 || code == 0x0A || code == 0x0C || code == 0x0D) {
                            return false; // written as \b \t \n \f \r
                        }
                        i += 4;
                    }
                    default -> {
                        return false; // \/ (written as /) or not JSON
                    }
                }
            }
        }
        return false;
    }

    private boolean literal(String word) {
        if (!s.startsWith(word, i)) {
            return false;
        }
        i += word.length();
        return true;
    }

    /** Integers as they are (but -0); fractions only in the plain notation BigDecimal writes them in. */
    private boolean number() {
        int start = i;
        boolean negative = at('-');
        if (negative) {
            i++;
        }
        int intStart = i;
        if (!digit()) {
            return false;
        }
        boolean intZero = s.charAt(i) == '0';
        i++;
        if (!intZero) {
            while (digit()) {
                i++;
            }
        }
        boolean fraction = at('.');
        boolean allZero = intZero;
        if (fraction) {
            i++;
            if (!digit()) {
                return false;
            }
            int leadingZeros = 0;
            boolean seenNonZero = false;
            while (digit()) {
                if (s.charAt(i) != '0') {
                    seenNonZero = true;
                } else if (!seenNonZero) {
                    leadingZeros++;
                }
                i++;
            }
            allZero = intZero && !seenNonZero;
            if (intZero && leadingZeros > MAX_LEADING_FRACTION_ZEROS) {
                return false; // BigDecimal writes 0.0000001 as 1E-7, 0.0000000 as 0E-7
            }
        }
        if (at('e') || at('E')) {
            return false; // BigDecimal writes its own exponent
        }
        if (negative && allZero) {
            return false; // -0 and -0.0 are written without the sign
        }
        return i - start <= MAX_NUMBER_CHARS && (fraction || i > intStart);
    }

    private boolean digit() {
        if (i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        return c >= '0' && c <= '9';
    }

    private boolean at(char c) {
        return i < s.length() && s.charAt(i) == c;
    }
}
