package org.siebog.examples;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The examples are what an agent developer writes (docs/agents.md): compiled against siebog-api alone,
 * so they use Siebog only through {@code org.siebog.api}, besides Jakarta EE, the JDK and their own
 * packages. The server is not even on this module's classpath; this says so for what is.
 */
class ExamplesUseOnlyTheApiTest {

    private static final JavaClasses EXAMPLES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.siebog.examples");

    @Test
    void theExamplesUseOnlyTheApiJakartaAndTheJdk() {
        classes().that().resideInAPackage("org.siebog.examples..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("org.siebog.api..", "org.siebog.examples..", "jakarta..", "java..")
                .check(EXAMPLES);
    }

    @Test
    void noExampleIsInACycleWithAnother() {
        slices().matching("org.siebog.examples.(*)..").should().beFreeOfCycles().check(EXAMPLES);
    }
}
