package org.siebog.examples.books;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import org.siebog.api.InvalidAgentRequestException;

/** What the book traders share: the service they meet through and the catalogue's text form. */
final class Books {

    /** The directory facilitator's service type of book sellers. */
    static final String SERVICE_TYPE = "book-selling";

    private Books() {
    }

    /** {@code title=price;title=price} (prices decimal) as a catalogue; a bad one is a 400 naming the entry. */
    static Map<String, BigDecimal> catalogue(String text) {
        Map<String, BigDecimal> catalogue = new TreeMap<>();
        if (text == null || text.isBlank()) {
            return catalogue;
        }
        for (String entry : text.split(";")) {
            int equals = entry.lastIndexOf('=');
            if (equals < 1) {
                throw new InvalidAgentRequestException("a catalogue entry must be title=price, got '" + entry + "'");
            }
            catalogue.put(entry.substring(0, equals).trim(), price(entry.substring(equals + 1), "the price of " + entry.substring(0, equals).trim()));
        }
        return catalogue;
    }

    static String catalogueText(Map<String, BigDecimal> catalogue) {
        StringBuilder text = new StringBuilder();
        catalogue.forEach((title, price) -> text.append(text.isEmpty() ? "" : ";").append(title).append('=').append(price.toPlainString()));
        return text.toString();
    }

    /** A decimal price, zero or more; anything else is a 400 saying {@code what}. */
    static BigDecimal price(String text, String what) {
        try {
            BigDecimal price = new BigDecimal(text.trim());
            if (price.signum() >= 0) {
                return price;
            }
        } catch (NumberFormatException | NullPointerException e) {
            // said below
        }
        throw new InvalidAgentRequestException(what + " must be a decimal number of 0 or more, got '" + text + "'");
    }
}
