package io.legacygateway.relay;

/** What a FAILED row means for the later rows of its aggregate. */
public enum FailedRowPolicy {
    /** They are published: a FAILED row never blocks other rows. */
    CONTINUE,
    /** They wait until the FAILED row has been retried and published, then follow in order. */
    BLOCK_AGGREGATE
}
