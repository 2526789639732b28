package io.legacygateway.envelope;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ValueNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The JSON numbers an envelope read by {@link EnvelopeCodec#read} may hold, checked as the parser makes each one (no
 * second walk over the tree): at most {@value #MAX_INTEGER_DIGITS} digits before the decimal point (every finite
 * double, up to 1.8e308, and far inside PostgreSQL {@code NUMERIC}'s 131,072) and at most
 * {@value #MAX_DECIMAL_PLACES} after it (every double down to 4.9e-324 as Java or JavaScript write it; PostgreSQL keeps
 * 16,383, MariaDB {@code DECIMAL} rounds to its column's scale). Numbers keep their exact digits (150.00 stays 150.00).
 *
 * <p>Why: the inbox binds numbers as exact decimals; a number like {@code 1e131072} was stored by PostgreSQL as 0,
 * {@code -5e300000} as another value, and on MariaDB {@code 1e999999999} (22 bytes of JSON) made the driver write out
 * a billion digits. Such a number is refused at decode ({@link NumberOutOfBoundsException}), before any database work.
 */
public final class BoundedNumbers extends JsonNodeFactory {

    /** Most digits before the decimal point: |x| < 10^309. */
    public static final int MAX_INTEGER_DIGITS = 309;
    /** Most digits after the decimal point, as written (trailing zeros count). */
    public static final int MAX_DECIMAL_PLACES = 400;

    private static final long serialVersionUID = 1L;
    private static final BigInteger LIMIT = BigInteger.TEN.pow(MAX_INTEGER_DIGITS);

    /** A number outside the bounds; unchecked, as the node factory cannot throw a checked exception. */
    public static final class NumberOutOfBoundsException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        NumberOutOfBoundsException(String number) {
            super("number " + (number.length() <= 40 ? number : number.substring(0, 20) + "…("
                    + number.length() + " characters)") + " is out of bounds: at most " + MAX_INTEGER_DIGITS
                    + " digits before the decimal point (|x| < 1e" + MAX_INTEGER_DIGITS + ") and "
                    + MAX_DECIMAL_PLACES + " after it");
        }
    }

    public BoundedNumbers() {
        super(true); // exact decimals
    }

    @Override
    public ValueNode numberNode(BigDecimal v) {
        if (v != null && !within(v)) {
            throw new NumberOutOfBoundsException(v.toString());
        }
        return super.numberNode(v);
    }

    @Override
    public ValueNode numberNode(BigInteger v) {
        if (v != null && v.abs().compareTo(LIMIT) >= 0) {
            throw new NumberOutOfBoundsException(v.toString());
        }
        return super.numberNode(v);
    }

    /** Whether {@code v} is within the bounds; cheap: no digits are written out. */
    public static boolean within(BigDecimal v) {
        // digits before the point: precision - scale (for |v| >= 1); a negative scale adds zeros before the point
        return v.scale() <= MAX_DECIMAL_PLACES && (long) v.precision() - v.scale() <= MAX_INTEGER_DIGITS;
    }
}
