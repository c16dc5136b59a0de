package io.github.flashstock.inventory.rebuild;

import java.util.Optional;
import java.util.Set;

/** The global transactions the coordinator holds open right now. */
public interface OpenTransactions {

    /** Whether there is a coordinator to ask at all (its console is configured). */
    boolean configured();

    /** The open transactions' XIDs; empty when the coordinator cannot be asked now, which is not "none". */
    Optional<Set<String>> openXids();
}
