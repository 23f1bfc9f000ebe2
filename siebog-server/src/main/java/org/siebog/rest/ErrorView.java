package org.siebog.rest;

/** The body of every error response: what went wrong, for a person. */
public record ErrorView(String error) {
}
