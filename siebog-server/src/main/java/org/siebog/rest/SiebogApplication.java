package org.siebog.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The REST API lives under {@code /siebog/api}. */
@ApplicationPath("/api")
public class SiebogApplication extends Application {
}
