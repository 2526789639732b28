package io.legacygateway.adapters.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the contract test class against MariaDB ({@link DatabaseServers}): {@code @OnMariaDb class MariaDbXTest extends XContractTest {}}.
 *
 * @see OnDatabase
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnDatabase(ContractDatabase.MARIADB)
public @interface OnMariaDb {
}
