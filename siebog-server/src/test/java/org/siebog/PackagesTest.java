package org.siebog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;

/**
 * The server's packages depend one way (docs/architecture.md, "Packages"): each layer below uses
 * only the layers before it, the agent developer's API uses nothing of the server, and no package
 * has a cycle with another. A new import against the grain fails here, with the classes named.
 */
class PackagesTest {

    /** Bottom to top: a layer may use the ones before it, never the ones after. */
    private static final List<Layer> LAYERS = List.of(
            new Layer("Api", "org.siebog.api.."),
            new Layer("Values", "org.siebog.platform..", "org.siebog.message..", "org.siebog.agent.."),
            new Layer("Directory", "org.siebog.directory..", "org.siebog.placement.."),
            new Layer("State", "org.siebog.state.."),
            new Layer("Cluster", "org.siebog.cluster.."),
            new Layer("Delivery", "org.siebog.delivery.."),
            new Layer("Replication", "org.siebog.replication.."),
            new Layer("Lifecycle", "org.siebog.agentmanager.."),
            new Layer("Devices", "org.siebog.device.."),
            new Layer("NodeRequests", "org.siebog.connection.."),
            new Layer("Rest", "org.siebog.rest.."));

    private record Layer(String name, String... packages) {
    }

    private static final JavaClasses SIEBOG = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.siebog");

    @Test
    void eachLayerUsesOnlyTheLayersBeforeIt() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (Layer layer : LAYERS) {
            layers = layers.layer(layer.name()).definedBy(layer.packages());
        }
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = LAYERS.subList(i + 1, LAYERS.size()).stream().map(Layer::name).toArray(String[]::new);
            layers = layers.whereLayer(LAYERS.get(i).name()).mayOnlyBeAccessedByLayers(above);
        }
        layers = layers.whereLayer(LAYERS.get(LAYERS.size() - 1).name()).mayNotBeAccessedByAnyLayer();
        layers.check(SIEBOG);
    }

    @Test
    void noPackageIsInACycle() {
        slices().matching("org.siebog.(*)..").should().beFreeOfCycles().check(SIEBOG);
    }

    @Test
    void theApiUsesNothingOfTheServer() {
        noClasses().that().resideInAPackage("org.siebog.api..")
                .should().dependOnClassesThat().resideOutsideOfPackages("org.siebog.api..", "java..", "jakarta..")
                .check(SIEBOG);
    }

    @Test
    void theExamplesCompileAgainstTheApiAlone() {
        noClasses().that().resideInAPackage("org.siebog.examples..")
                .should().dependOnClassesThat().resideInAnyPackage(serverPackages())
                .check(SIEBOG);
    }

    @Test
    void theCoreDoesNotReachTheEdges() {
        noClasses().that().resideOutsideOfPackages("org.siebog.rest..", "org.siebog.device..", "org.siebog.connection..",
                        "org.siebog.examples..")
                .should().dependOnClassesThat().resideInAnyPackage("org.siebog.rest..", "org.siebog.device..",
                        "jakarta.ws.rs..", "jakarta.websocket..")
                .check(SIEBOG);
    }

    private static String[] serverPackages() {
        return LAYERS.stream().skip(1).flatMap(l -> Arrays.stream(l.packages())).toArray(String[]::new);
    }
}
