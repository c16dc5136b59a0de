package io.github.flashstock.support.web;

import java.util.List;

/**
 * The {@code page} and {@code size} query parameters of an admin listing, as both services read them: {@code page}
 * counts from 1 (default 1), {@code size} is 1 to {@value #MAX_SIZE} (default {@value #DEFAULT_SIZE}). A value out of
 * range is 400 {@code invalid-request} naming the parameter ({@link #PAGE_RULE}, {@link #SIZE_RULE}), one that is not a
 * whole number the same ({@link BadInputAdvice}).
 */
public final class Paging {

    public static final String DEFAULT_PAGE = "1";
    public static final int DEFAULT_SIZE = 50;
    /** {@link #DEFAULT_SIZE} as a {@code @RequestParam} default. */
    public static final String DEFAULT_SIZE_TEXT = "50";
    public static final int MAX_SIZE = 500;
    public static final String PAGE_RULE = "page: must be 1 or more";
    public static final String SIZE_RULE = "size: must be 1 to " + MAX_SIZE;

    private Paging() {
    }

    /**
     * One page of a listing: its {@code items}, which {@code page} (from 1) of what {@code size}, and how many items
     * the whole listing holds ({@code total}); past the last page, {@code items} is empty.
     */
    public record Listing<T>(List<T> items, long page, long size, long total) {
    }
}
