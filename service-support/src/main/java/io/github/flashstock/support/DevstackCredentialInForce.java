package io.github.flashstock.support;

import java.util.List;

/**
 * Raised at start when a credential in force is one of the devstack's and profile {@value DevstackCredentials#PROFILE}
 * is not active (see {@link DevstackCredentials}). Names each setting, the variable that sets it and what to do.
 */
public class DevstackCredentialInForce extends IllegalStateException {

    DevstackCredentialInForce(List<String> settings) {
        super("Refusing to start with the devstack's credentials, which this project's files publish: "
                + String.join("; ", settings) + ". Set each variable to the real secret; to run against the devstack,"
                + " activate profile " + DevstackCredentials.PROFILE + " (SPRING_PROFILES_ACTIVE="
                + DevstackCredentials.PROFILE + ").");
    }
}
