package io.legacygateway.deadletter;

/**
 * A queue on the dead-letter address.
 *
 * @param name            the queue, {@code DLQ.<address>}
 * @param address         the dead-letter address it is bound to ({@code DLA})
 * @param originalAddress the address whose dead letters it holds (from its filter {@code _AMQ_ORIG_ADDRESS = '…'}),
 *                        {@code null} for a queue without such a filter
 * @param depth           messages on it, as the broker counts them
 */
public record DeadLetterQueue(String name, String address, String originalAddress, long depth) {

    /** Whether an operator's queue name means this queue: its own name or the original address. */
    boolean named(String queueOrAddress) {
        return name.equals(queueOrAddress) || queueOrAddress.equals(originalAddress);
    }
}
