package org.siebog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;

/**
 * The server's packages depend one way (docs/architecture.md, "Packages"): each layer below uses
 * only the layers before it, the agent developer's API uses nothing of the server, and no package
 * has a cycle with another. A new import against the grain fails here, with the classes named. (The
 * examples are a deployment of their own, siebog-examples, with its own check: ExamplesUseOnlyTheApiTest.)
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
            new Layer("Services", "org.siebog.df..", "org.siebog.topic..", "org.siebog.tuples.."),
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
    void theCoreDoesNotReachTheEdges() {
        noClasses().that().resideOutsideOfPackages("org.siebog.rest..", "org.siebog.device..", "org.siebog.connection..")
                .should().dependOnClassesThat().resideInAnyPackage("org.siebog.rest..", "org.siebog.device..",
                        "jakarta.ws.rs..", "jakarta.websocket..")
                .check(SIEBOG);
    }

    /**
     * A public class of the server is used from another package, or the container finds it (beans,
     * resources, endpoints, filters), or agents and tests in other packages reach it by name: what
     * only its own package uses is package-private.
     */
    @Test
    void whatOnlyItsPackageUsesIsPackagePrivate() {
        classes().that().resideOutsideOfPackages("org.siebog.api..").and().arePublic().and().areTopLevelClasses()
                .and(new DescribedPredicate<JavaClass>("of the server's main code") {
                    @Override
                    public boolean test(JavaClass type) {
                        return SIEBOG.contain(type.getName());
                    }
                })
                .should(new ArchCondition<JavaClass>("be used outside their package or found by the container") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        // Uses of its nested classes count (Wire.Writer is how other packages use Wire).
                        boolean usedElsewhere = SIEBOG_AND_TESTS.stream()
                                .filter(c -> c.equals(type) || c.getName().startsWith(type.getName() + "$"))
                                .flatMap(c -> c.getDirectDependenciesToSelf().stream())
                                .anyMatch(d -> !d.getOriginClass().getPackageName().equals(type.getPackageName()));
                        boolean container = CONTAINER_ANNOTATIONS.stream().anyMatch(type::isAnnotatedWith)
                                || JSON_VIEWS.contains(type.getSimpleName());
                        if (!usedElsewhere && !container) {
                            events.add(SimpleConditionEvent.violated(type, type.getName() + " is public but only its own package uses it"));
                        }
                    }
                })
                .check(SIEBOG_AND_TESTS);
    }

    /** What the container instantiates or looks up by itself: such classes stay public. */
    private static final List<String> CONTAINER_ANNOTATIONS = List.of("jakarta.ejb.Singleton", "jakarta.ejb.Stateless", "jakarta.ejb.Stateful",
            "jakarta.enterprise.context.ApplicationScoped", "jakarta.ws.rs.Path", "jakarta.ws.rs.ext.Provider", "jakarta.ws.rs.ApplicationPath",
            "jakarta.websocket.server.ServerEndpoint", "jakarta.servlet.annotation.WebFilter", "jakarta.servlet.annotation.WebServlet");

    /** What JSON-B writes by reflection (the REST API's bodies): kept public for it. */
    private static final Set<String> JSON_VIEWS = Set.of("AgentClassView", "AgentView", "ErrorView");

    /** The server's classes with the tests': a class the tests of another package use is used there. */
    private static final JavaClasses SIEBOG_AND_TESTS = new ClassFileImporter().importPackages("org.siebog");
}
