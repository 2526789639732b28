package io.legacygateway.adapters.testsupport;

/**
 * A contract test whose database is a parameter: {@link OnPostgres}, {@link OnMariaDb} or {@link OnH2} on the
 * concrete class names it.
 */
public interface ContractDatabaseTest {

    /** The database this class runs against. */
    default ContractDatabase database() {
        return ContractDatabase.of(getClass());
    }
}
