package io.legacygateway.adapters.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the contract test class against PostgreSQL ({@link DatabaseServers}): {@code @OnPostgres class PostgresXTest extends XContractTest {}}.
 *
 * @see OnDatabase
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnDatabase(ContractDatabase.POSTGRESQL)
public @interface OnPostgres {
}
