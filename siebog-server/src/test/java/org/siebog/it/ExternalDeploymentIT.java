package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.ext.ExternalEcho;

/**
 * Agent classes come from any deployment, not only Siebog's: an EJB jar (or WAR) deployed on its own,
 * holding only its agent class (compiled against siebog-api alone) and seeing the API through a module
 * dependency on the EAR ({@value SiebogDeployment#EAR_MODULE}, whose {@code lib/} holds the API), is
 * listed, started and messaged like a built-in agent, and leaves the list when undeployed.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ExternalDeploymentIT {

    static final String MANIFEST_JAR = "manifest-jar";
    static final String STRUCTURE_JAR = "structure-jar";
    static final String MANIFEST_WAR = "manifest-war";
    static final String WAR_MODULE_JAR = "war-module-jar";

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive siebog() {
        return SiebogDeployment.ear();
    }

    /** {@code META-INF/MANIFEST.MF}: {@code Dependencies: deployment.siebog.ear}. */
    @Deployment(name = MANIFEST_JAR, managed = false, testable = false)
    static JavaArchive ejbJarWithManifestDependency() {
        return ShrinkWrap.create(JavaArchive.class, "external-agents-manifest.jar")
                .addClass(ExternalEcho.class)
                .setManifest(new StringAsset(manifestDependingOnSiebog()));
    }

    /** {@code META-INF/jboss-deployment-structure.xml} naming the same module. */
    @Deployment(name = STRUCTURE_JAR, managed = false, testable = false)
    static JavaArchive ejbJarWithDeploymentStructure() {
        return ShrinkWrap.create(JavaArchive.class, "external-agents-structure.jar")
                .addClass(ExternalEcho.class)
                .addAsManifestResource(new StringAsset(deploymentStructureDependingOnSiebog()), "jboss-deployment-structure.xml");
    }

    /** A WAR with the agent in WEB-INF/classes and the manifest dependency. */
    @Deployment(name = MANIFEST_WAR, managed = false, testable = false)
    static WebArchive warWithManifestDependency() {
        return ShrinkWrap.create(WebArchive.class, "external-agents.war")
                .addClass(ExternalEcho.class)
                .setManifest(new StringAsset(manifestDependingOnSiebog()));
    }

    /**
     * Depending on the Siebog WAR's module alone is not enough: the API lives in the EAR's {@code lib/},
     * and the WAR's module does not export what it sees from there.
     */
    @Deployment(name = WAR_MODULE_JAR, managed = false, testable = false)
    static JavaArchive ejbJarDependingOnTheWarOnly() {
        return ShrinkWrap.create(JavaArchive.class, "external-agents-war-module.jar")
                .addClass(ExternalEcho.class)
                .setManifest(new StringAsset("Manifest-Version: 1.0\nDependencies: " + SiebogDeployment.WAR_MODULE + "\n"));
    }

    @ArquillianResource
    private Deployer deployer;

    private final SiebogApi siebog = SiebogApi.testServer();

    @Test
    void anAgentFromAnEjbJarWithAManifestDependencyIsListedStartedAndMessaged() {
        deployAndUse(MANIFEST_JAR);
    }

    @Test
    void anAgentFromAnEjbJarWithAJbossDeploymentStructureIsListedStartedAndMessaged() {
        deployAndUse(STRUCTURE_JAR);
    }

    @Test
    void anAgentFromAWarWithAManifestDependencyIsListedStartedAndMessaged() {
        deployAndUse(MANIFEST_WAR);
    }

    @Test
    void dependingOnTheWarModuleAloneIsNotEnough() {
        Exception refused = assertThrows(Exception.class, () -> deployer.deploy(WAR_MODULE_JAR));
        assertTrue(refused.getMessage().contains("external-agents-war-module.jar"), refused::getMessage);
        assertFalse(siebog.agentClasses().containsKey("ExternalEcho"));
    }

    @Test
    void theAgentArchivesHoldOnlyTheirOwnClasses() {
        for (Archive<?> archive : List.of(ejbJarWithManifestDependency(), ejbJarWithDeploymentStructure(), warWithManifestDependency())) {
            List<String> classes = archive.getContent().keySet().stream().map(path -> path.get())
                    .filter(path -> path.endsWith(".class")).toList();
            assertEquals(1, classes.size(), () -> archive.getName() + ": " + classes);
            assertTrue(classes.get(0).endsWith("org/siebog/it/ext/ExternalEcho.class"), classes::toString);
        }
    }

    private void deployAndUse(String deployment) {
        assertFalse(siebog.agentClasses().containsKey("ExternalEcho"), "not there before its deployment");
        deployer.deploy(deployment);
        try {
            assertEquals("stateful", siebog.agentClasses().get("ExternalEcho"), () -> "listed: " + siebog.agentClasses());

            String echo = siebog.startAgent("ExternalEcho", "external-" + deployment, Map.of("greeting", "hi"));
            assertEquals("ExternalEcho", siebog.agents().get(echo).getString("agentClass"));
            String watch = siebog.startAgent("Recorder", "external-watch-" + deployment);
            siebog.send(message("REQUEST").from(watch).to(echo).content("there").json());
            siebog.send(message("REQUEST").from(watch).to(echo).content("again").json());
            assertEquals(List.of("hi there #1", "hi again #2"), siebog.awaitRecords("external-watch-" + deployment,
                    "two answers", r -> r.messages().size() == 2).contents(), "answers, from a stateful agent that counts");

            siebog.stopAgent(echo);
            siebog.stopAgent(watch);
        } finally {
            deployer.undeploy(deployment);
        }
        // Starts find their class in what the node keeps from its last walk: an undeployment must show there too.
        String refusal = siebog.tryStartAgent("ExternalEcho", "external-after-" + deployment, Map.of()).assertError(400);
        assertTrue(refusal.contains("unknown agent class 'ExternalEcho'"), refusal);
        assertFalse(siebog.agentClasses().containsKey("ExternalEcho"), "gone with its deployment");
    }

    private static String manifestDependingOnSiebog() {
        return "Manifest-Version: 1.0\nDependencies: " + SiebogDeployment.EAR_MODULE + "\n";
    }

    private static String deploymentStructureDependingOnSiebog() {
        return """
                <jboss-deployment-structure xmlns="urn:jboss:deployment-structure:1.2">
                    <deployment>
                        <dependencies>
                            <module name="%s"/>
                        </dependencies>
                    </deployment>
                </jboss-deployment-structure>
                """.formatted(SiebogDeployment.EAR_MODULE);
    }

}
