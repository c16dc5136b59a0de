package io.github.flashstock.inventory.reconciliation.web;

import io.github.flashstock.support.web.AdminTokens;
import java.security.Principal;

/**
 * Who asked for a repair, as {@code repair_audit.actor} ({@code VARCHAR(}{@value #COLUMN}{@code )}) records it: the
 * admin the bearer token identifies ({@code admin}, or a named token's name: at most {@value AdminTokens#NAME_MAX}
 * characters), then, when the caller sent one in header {@value #NOTE_HEADER}, its note in parentheses:
 * {@code admin (alice, OPS-1234)}. The note is checked before anything runs (400 {@code invalid-request}): at most
 * {@value #NOTE_MAX} characters, ASCII letters, digits, spaces and {@code . _ : @ # / , -} (a header carries bytes,
 * not text), so that the actor always fits its column and holds no markup and no control character. A header never
 * names the actor: the token does.
 */
final class RepairActor {

    static final String NOTE_HEADER = "X-Audit-Note";
    /** The length of {@code repair_audit.actor} (sql/inventory.sql). */
    static final int COLUMN = 64;
    /** What is left of the column after the longest name, a space and the parentheses. */
    static final int NOTE_MAX = COLUMN - AdminTokens.NAME_MAX - 3;
    static final String NOTE = "[A-Za-z0-9._:@#/,-][A-Za-z0-9 ._:@#/,-]*";
    static final String NOTE_RULE = NOTE_HEADER + ": at most " + NOTE_MAX + " characters, ASCII letters, digits,"
            + " spaces and . _ : @ # / , - (not starting with a space)";
    /** The header that once named the actor whatever the token: refused, so no caller believes it still counts. */
    static final String RETIRED_HEADER = "X-Actor";
    static final String RETIRED_RULE = RETIRED_HEADER + " is no longer read: the actor is the admin the bearer token"
            + " names (inventory.admin-tokens.<name> gives each person a token); put a note in " + NOTE_HEADER;

    private RepairActor() {
    }

    /**
     * @param caller the admin the request goes on as ({@code /admin/**} lets no one else in)
     * @param note   the checked note, or null
     */
    static String of(Principal caller, String note) {
        if (caller == null || caller.getName().length() > AdminTokens.NAME_MAX) {
            throw new IllegalStateException("a repair needs an admin named in at most " + AdminTokens.NAME_MAX
                    + " characters, was " + caller);
        }
        return note == null ? caller.getName() : caller.getName() + " (" + note + ")";
    }
}
