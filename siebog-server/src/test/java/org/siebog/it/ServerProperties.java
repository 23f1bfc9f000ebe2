package org.siebog.it;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.jboss.as.arquillian.container.ManagementClient;
import org.jboss.as.controller.client.helpers.Operations;
import org.jboss.dmr.ModelNode;

/**
 * System properties of the test server, set for the length of a test through its management API
 * ({@code /system-property=NAME:add(value=VALUE)}) and removed again by {@link #close()}: for settings
 * the server reads when it uses them, such as the device admission properties.
 */
final class ServerProperties implements AutoCloseable {

    private final ManagementClient management;
    private final List<String> added = new ArrayList<>();

    ServerProperties(ManagementClient management) {
        this.management = management;
    }

    ServerProperties set(String name, String value) {
        ModelNode address = Operations.createAddress("system-property", name);
        if (added.contains(name)) {
            execute(Operations.createWriteAttributeOperation(address, "value", value));
        } else {
            ModelNode add = Operations.createAddOperation(address);
            add.get("value").set(value);
            execute(add);
            added.add(name);
        }
        return this;
    }

    @Override
    public void close() {
        for (String name : added) {
            execute(Operations.createRemoveOperation(Operations.createAddress("system-property", name)));
        }
        added.clear();
    }

    private void execute(ModelNode operation) {
        try {
            ModelNode result = management.getControllerClient().execute(operation);
            if (!Operations.isSuccessfulOutcome(result)) {
                fail(operation + " failed: " + Operations.getFailureDescription(result));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
