/**
 * The contracts of the gateway jar's commands, below the features that implement them: a command that reads no
 * configuration ({@code GatewayCommand}), one that runs on the gateway's configured beans
 * ({@code ConfiguredCommand}), and the REST client with its options that the operator
 * commands share. The command line that lists and runs them ({@code cli/}) sits above the features, so no feature
 * imports it.
 */
package io.legacygateway.command;
