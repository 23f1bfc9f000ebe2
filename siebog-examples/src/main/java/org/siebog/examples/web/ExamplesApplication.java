package org.siebog.examples.web;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/**
 * The examples' REST resources live under {@code /siebog-examples/api}, beside Siebog's own API at
 * {@code /siebog/api}, with the same accounts and roles (web.xml).
 */
@ApplicationPath("/api")
public class ExamplesApplication extends Application {
}
