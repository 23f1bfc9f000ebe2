package org.siebog.rest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.stream.Stream;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.siebog.api.SiebogException;

/**
 * Paging of a listing ({@code GET /agents}, {@code GET /devices}): {@code ?limit=N} answers at most N
 * entries in the order of their keys (an AID, a device id) and, when more follow, a
 * {@code Link: <...>; rel="next"} header whose URL carries the cursor ({@code after}). The cursor is
 * the last key answered, so a page never repeats or skips an entry that exists throughout the
 * listing, however many start or stop meanwhile (keyset paging: no offsets to shift). Without
 * {@code limit} the whole listing is answered, as the contract has always said.
 *
 * <p>A page is picked in one pass with a heap of {@code limit + 1} entries: the node holds no more
 * than the page, whatever the listing's size.
 */
final class Paging {

    /** The largest page: 1,000 agents are about 70 KB of JSON. */
    static final int MAX_LIMIT = 1000;

    private Paging() {
    }

    /** A query parameter out of its range or unreadable: 400, nothing answered. */
    static final class BadQueryException extends SiebogException {
        BadQueryException(String message) {
            super(message);
        }
    }

    /** One page: its entries in key order, and the cursor to the next page (null on the last). */
    record Page<T>(List<T> items, String next) {
    }

    /**
     * The page of {@code entries} (already filtered) after the cursor {@code after}, at most
     * {@code limitText} of them; without a limit, all of them.
     */
    static <T> Page<T> of(Stream<T> entries, Function<T, String> key, String limitText, String after) {
        Comparator<T> byKey = Comparator.comparing(key);
        if (limitText == null) {
            if (after != null) {
                throw new BadQueryException("'after' pages a listing: give 'limit' too (1 to " + MAX_LIMIT + ")");
            }
            return new Page<>(entries.sorted(byKey).toList(), null);
        }
        int limit = limit(limitText);
        String from = after == null ? null : decode(after);
        // The limit + 1 smallest keys past the cursor: the one beyond the page says that more follow.
        PriorityQueue<T> smallest = new PriorityQueue<>(limit + 1, byKey.reversed());
        entries.filter(e -> from == null || key.apply(e).compareTo(from) > 0).forEach(e -> {
            smallest.add(e);
            if (smallest.size() > limit + 1) {
                smallest.poll();
            }
        });
        List<T> page = new ArrayList<>(smallest);
        page.sort(byKey);
        if (page.size() <= limit) {
            return new Page<>(page, null);
        }
        List<T> items = List.copyOf(page.subList(0, limit));
        return new Page<>(items, encode(key.apply(items.get(limit - 1))));
    }

    /** The cursor to the page after the entry of {@code key}, for a listing that pages itself. */
    static String cursor(String key) {
        return encode(key);
    }

    /** The key a cursor ({@code after}) stands for, or null without one. */
    static String afterKey(String after) {
        return after == null ? null : decode(after);
    }

    /** The page as the answer: the entries, and a {@code Link} to the next page when there is one. */
    static Response response(Page<?> page, UriInfo uri) {
        Response.ResponseBuilder response = Response.ok(page.items());
        if (page.next() != null) {
            response.link(uri.getRequestUriBuilder().replaceQueryParam("after", page.next()).build(), "next");
        }
        return response.build();
    }

    static int limit(String text) {
        try {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadQueryException("'limit' must be a whole number from 1 to " + MAX_LIMIT + ", got '" + shortened(text) + "'");
    }

    /** The cursor is the last key, opaque to callers (they follow the link) and safe in a URL. */
    private static String encode(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String cursor) {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadQueryException("'after' is not a cursor this API gave out ('" + shortened(cursor)
                    + "'); follow the Link header's next URL");
        }
    }

    private static String shortened(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }
}
