/**
 * Global (XA) transactions for the relays that ask for them ({@code transactionMode: XA}): Narayana as the JTA
 * transaction manager, XA datasources and the Artemis XA connection factory, the object store and periodic recovery.
 * Nothing here starts while no relay uses XA. Imports no feature.
 */
package io.legacygateway.transactions;
