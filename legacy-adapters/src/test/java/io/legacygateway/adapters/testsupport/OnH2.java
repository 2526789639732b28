package io.legacygateway.adapters.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the contract test class against an in-memory H2 (an extra fast lane, never the only database): {@code @OnH2 class H2XTest extends XContractTest {}}.
 *
 * @see OnDatabase
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@OnDatabase(ContractDatabase.H2)
public @interface OnH2 {
}
