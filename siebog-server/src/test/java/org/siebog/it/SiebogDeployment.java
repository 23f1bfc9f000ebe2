package org.siebog.it;

import java.io.File;

import org.jboss.arquillian.container.test.api.Testable;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.siebog.api.AID;
import org.siebog.it.agents.Recorder;

/**
 * The deployment under test, shaped like the real one from siebog-ear: {@code siebog.ear} (application
 * {@code siebog}) holding {@code siebog-server.war} at {@code /siebog} and the API in
 * {@code lib/siebog-api.jar}, so the managers' global JNDI names ({@code java:global/siebog/siebog-server/...})
 * are the real ones and other deployments see the API where they would. The WAR is the one this build
 * packaged (main classes only), plus the test agents of {@code org.siebog.it.agents}.
 */
public final class SiebogDeployment {

    public static final String EAR_NAME = "siebog.ear";
    public static final String WAR_NAME = "siebog-server.war";
    public static final String API_JAR = "siebog-api.jar";

    /** The examples' deployment (siebog-examples), at {@code /siebog-examples}; it waits for siebog.ear. */
    public static final String EXAMPLES_WAR_NAME = "siebog-examples.war";

    /** What WildFly names the EAR's module, which holds the API ({@code lib/}): other deployments with agents depend on it. */
    public static final String EAR_MODULE = "deployment." + EAR_NAME;

    /** What WildFly names the WAR's module (the server's own classes; it does not export the API). */
    public static final String WAR_MODULE = "deployment." + EAR_NAME + "." + WAR_NAME;

    private static final String APPLICATION_XML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <application xmlns="https://jakarta.ee/xml/ns/jakartaee"
                         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                         xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/application_10.xsd"
                         version="10">
                <application-name>siebog</application-name>
                <module>
                    <web>
                        <web-uri>siebog-server.war</web-uri>
                        <context-root>/siebog</context-root>
                    </web>
                </module>
            </application>
            """;

    private SiebogDeployment() {
    }

    /** The EAR for tests that run only as a client (over HTTP). */
    public static EnterpriseArchive ear() {
        return ShrinkWrap.create(EnterpriseArchive.class, EAR_NAME)
                .setApplicationXML(new StringAsset(APPLICATION_XML))
                .addAsModule(war())
                .addAsLibrary(api());
    }

    /**
     * The EAR for a test class with in-container tests: the class (and {@code helpers}) go into the WAR,
     * which is marked as the module Arquillian runs them in.
     */
    public static EnterpriseArchive earWithTests(Class<?> testClass, Class<?>... helpers) {
        WebArchive war = war().addClass(testClass).addClasses(helpers);
        return ShrinkWrap.create(EnterpriseArchive.class, EAR_NAME)
                .setApplicationXML(new StringAsset(APPLICATION_XML))
                .addAsModule(Testable.archiveToTest(war))
                .addAsLibrary(api());
    }

    /**
     * The examples (Ping/Pong, Counter/Ticker, Sender/Receiver and its REST resource, TSP with its client
     * agents) as {@code ./siebog run} deploys them beside the EAR: the WAR siebog-examples packaged, copied
     * by this build to {@code target/it-deployments/}. Deploy it after {@link #ear()} (a second
     * {@code @Deployment}, {@code order = 2}).
     */
    public static WebArchive examples() {
        File packaged = new File(System.getProperty("siebog.it.examplesWar", "target/it-deployments/" + EXAMPLES_WAR_NAME));
        if (!packaged.isFile()) {
            throw new IllegalStateException(packaged.getAbsolutePath()
                    + " is missing: the build copies siebog-examples' WAR there before the integration tests");
        }
        WebArchive war = ShrinkWrap.createFromZipFile(WebArchive.class, packaged);
        if (!war.contains("/WEB-INF/classes/org/siebog/examples/pingpong/Pong.class")) {
            throw new IllegalStateException(packaged + " does not hold the examples");
        }
        return ShrinkWrap.create(WebArchive.class, EXAMPLES_WAR_NAME).merge(war);
    }

    /** siebog-api's classes (this build's, from the test classpath), as siebog-ear ships them in {@code lib/}. */
    private static JavaArchive api() {
        return ShrinkWrap.create(JavaArchive.class, API_JAR).addPackage(AID.class.getPackage());
    }

    private static WebArchive war() {
        File packaged = new File(System.getProperty("siebog.it.war", "target/siebog-server.war"));
        if (!packaged.isFile()) {
            throw new IllegalStateException(packaged.getAbsolutePath()
                    + " is missing: the integration tests deploy the WAR that `mvn -pl siebog-server verify` packages");
        }
        WebArchive war = ShrinkWrap.createFromZipFile(WebArchive.class, packaged);
        if (!war.contains("/WEB-INF/classes/org/siebog/agentmanager/AgentManagerBean.class")) {
            throw new IllegalStateException(packaged + " does not hold Siebog's classes");
        }
        if (war.contains("/WEB-INF/classes/org/siebog/api")) {
            throw new IllegalStateException(packaged + " holds the API's classes: they belong in the EAR's lib/ only");
        }
        // createFromZipFile names the archive after the file; the EAR's application.xml needs this name.
        return ShrinkWrap.create(WebArchive.class, WAR_NAME).merge(war).addPackage(Recorder.class.getPackage())
                // A client agent class for devices played by the tests (DevicesIT); they never load it.
                .addAsWebResource(new StringAsset("export default class TestClient {}\n"), "agents/TestClient.js");
    }
}
