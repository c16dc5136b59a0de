package io.github.flashstock.orderdemo.buyers;

/**
 * The buyer a request comes from: the subject ({@code sub}) of its verified buyer token. A controller method takes
 * it as a parameter; it is never read from the body.
 *
 * @param userId the token's subject, {@value #USER_ID_PATTERN}; the user id orders and purchase limits are kept under
 */
public record Buyer(String userId) {

    /** What a subject must look like to be a user id: the same ids inventory-service accepts. */
    public static final String USER_ID_PATTERN = "[A-Za-z0-9._-]{1,64}";
}
