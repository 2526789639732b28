package io.legacygateway.adapters.outbox.zerowrite;

/**
 * A zero-write relay's place: the open window {@code [low, high)} of the visibility mark ({@code high} {@code null}:
 * none open) and the cursor in it (the order and, when the cursor has two columns, the key of the last row read), each
 * in its encoded form.
 */
record ZeroWritePosition(String low, String high, String afterOrder, String afterKey) {

    /** Where a relay starts: no window open, rows from {@code low} on ({@code null}: every row). */
    static ZeroWritePosition startingAt(String low) {
        return new ZeroWritePosition(low, null, null, null);
    }

    ZeroWritePosition open(String horizon) {
        return new ZeroWritePosition(low, horizon, null, null);
    }

    ZeroWritePosition close() {
        return new ZeroWritePosition(high, null, null, null);
    }

    /** The open window with its cursor moved to the last row read. */
    ZeroWritePosition after(String order, String key) {
        return new ZeroWritePosition(low, high, order, key);
    }
}
