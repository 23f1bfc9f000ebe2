package org.siebog.api;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stateful agent's state as bytes: the values of the fields its own classes declare (below
 * {@link AbstractAgent}), serialised. Static and {@code transient} fields are not state, nor are
 * fields the container injects ({@code @Inject}, {@code @EJB}, {@code @Resource}, ...): a restored
 * agent gets those from its own container. Field values must be {@link java.io.Serializable}.
 *
 * <p>Classes are named in the bytes, not described: the nodes of one cluster run one build, so
 * the reader takes each class's layout from its own copy. Full descriptors (every field's name and
 * type, for every class in the state, on every save) were half the bytes and most of the time of
 * a save, which a busy agent pays once a second.
 */
final class AgentState {

    private static final Set<String> INJECTION_ANNOTATIONS = Set.of(
            "jakarta.inject.Inject", "jakarta.ejb.EJB", "jakarta.annotation.Resource",
            "jakarta.persistence.PersistenceContext", "jakarta.persistence.PersistenceUnit");

    private AgentState() {
    }

    /** @throws IllegalStateException a field's value cannot be serialised */
    static byte[] capture(AbstractAgent agent) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field field : stateFields(agent.getClass())) {
            try {
                values.put(key(field), field.get(agent));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + key(field), e);
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ClassNamesOutput(bytes)) {
            out.writeObject(values);
        } catch (NotSerializableException e) {
            throw new IllegalStateException("the state of " + agent.getClass().getName()
                    + " cannot be replicated: a field holds a " + e.getMessage() + ", which is not Serializable"
                    + " (make the field transient, or its type Serializable)", e);
        } catch (IOException e) {
            throw new IllegalStateException("the state of " + agent.getClass().getName() + " cannot be serialised: " + e, e);
        }
        return bytes.toByteArray();
    }

    /** Sets the fields of {@code agent} to the values {@link #capture} took from another instance of its class. */
    static void restore(AbstractAgent agent, byte[] state) {
        Map<?, ?> values;
        try (ObjectInputStream in = new AgentClassesInput(new ByteArrayInputStream(state), agent.getClass().getClassLoader())) {
            values = (Map<?, ?>) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("the saved state of " + agent.getClass().getName() + " cannot be read: " + e, e);
        }
        for (Field field : stateFields(agent.getClass())) {
            String key = key(field);
            if (values.containsKey(key)) {
                try {
                    field.set(agent, values.get(key));
                } catch (IllegalAccessException | IllegalArgumentException e) {
                    throw new IllegalStateException("cannot restore " + key + ": " + e, e);
                }
            }
        }
    }

    private static List<Field> stateFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != AbstractAgent.class && c != Object.class; c = c.getSuperclass()) {
            if (c.isSynthetic() || c.getName().contains("$$")) {
                continue; // a container-generated subclass (proxy) adds no state
            }
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers) || field.isSynthetic() || injected(field)) {
                    continue;
                }
                // Final fields too (say, a map the agent fills): reflection may set them once accessible.
                field.setAccessible(true);
                fields.add(field);
            }
        }
        return fields;
    }

    private static boolean injected(Field field) {
        for (Annotation a : field.getAnnotations()) {
            if (INJECTION_ANNOTATIONS.contains(a.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    private static String key(Field field) {
        return field.getDeclaringClass().getName() + "#" + field.getName();
    }

    /** Writes a class as its name only. */
    private static final class ClassNamesOutput extends ObjectOutputStream {

        ClassNamesOutput(OutputStream out) throws IOException {
            super(out);
        }

        @Override
        protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
            writeUTF(desc.getName());
        }
    }

    /** Reads what {@link ClassNamesOutput} wrote, resolving classes with the agent's class loader, where its field types live. */
    private static final class AgentClassesInput extends ObjectInputStream {
        private final ClassLoader loader;

        AgentClassesInput(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
            return ObjectStreamClass.lookupAny(load(readUTF()));
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws ClassNotFoundException {
            return load(desc.getName());
        }

        private Class<?> load(String name) throws ClassNotFoundException {
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                return Class.forName(name, false, AgentState.class.getClassLoader());
            }
        }
    }
}
