package io.legacygateway.adapters.outbox.mapping;

/** How the payload column is turned into CloudEvents {@code data}. */
public enum PayloadFormat {
    /** The column holds a JSON document; it becomes {@code data} as JSON. A row whose payload does not parse is rejected. */
    JSON,
    /** The column holds text; it becomes {@code data} as a JSON string with {@code datacontenttype: text/plain}. */
    TEXT,
    /**
     * The table has no payload column: {@code data} is a JSON object of the columns {@code payloadColumn} lists
     * ({@code a, b, c}, or {@code *} for all), each converted by its type ({@link PayloadField}).
     */
    COLUMNS
}
