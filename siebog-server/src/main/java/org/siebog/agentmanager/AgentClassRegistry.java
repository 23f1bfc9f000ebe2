package org.siebog.agentmanager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;

import jakarta.enterprise.context.ApplicationScoped;

import org.siebog.agent.AgentClass;
import org.siebog.agent.AgentKind;
import org.siebog.agent.StatefulAgent;
import org.siebog.agent.StatelessAgent;

/**
 * Finds agent classes in every deployment on the node, not from a list: every session bean that
 * exposes {@link StatefulAgent} or {@link StatelessAgent} is bound in {@code java:global} under
 * {@code app/module/Bean!org.siebog.agent.StatefulAgent} (or {@code module/Bean!...} for a bare
 * EJB jar or WAR), and that binding names both the class and its kind.
 *
 * <p>The walk is repeated on each call, so deploying or undeploying an agent jar shows at once.
 * It is cheap (a few JNDI list calls) next to starting an agent.
 */
@ApplicationScoped
public class AgentClassRegistry {

    private static final Logger LOG = Logger.getLogger(AgentClassRegistry.class.getName());
    private static final String ROOT = "java:global";
    private static final Map<String, AgentKind> VIEWS = Map.of(
            "!" + StatefulAgent.class.getName(), AgentKind.STATEFUL,
            "!" + StatelessAgent.class.getName(), AgentKind.STATELESS);

    public List<AgentClass> all() {
        List<Binding> bindings = new ArrayList<>();
        try {
            InitialContext jndi = new InitialContext();
            try {
                walk(jndi, ROOT, 0, bindings);
            } finally {
                jndi.close();
            }
        } catch (NamingException e) {
            LOG.log(Level.WARNING, "could not list " + ROOT + " to discover agent classes", e);
        }
        // The EJB name alone is the agent class name unless two deployments share it.
        Map<String, Long> byBean = bindings.stream().collect(Collectors.groupingBy(Binding::bean, Collectors.counting()));
        return bindings.stream()
                .map(b -> new AgentClass(byBean.get(b.bean()) == 1 ? b.bean() : b.path(), b.kind(), b.jndiName()))
                .sorted(Comparator.comparing(AgentClass::name))
                .toList();
    }

    public Optional<AgentClass> find(String name) {
        return all().stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** java:global/[app/]module/Bean!view: agents sit two or three levels down. */
    private static void walk(InitialContext jndi, String context, int depth, List<Binding> found) throws NamingException {
        NamingEnumeration<NameClassPair> names = jndi.list(context);
        try {
            while (names.hasMore()) {
                String name = names.next().getName();
                String full = context + "/" + name;
                int bang = name.indexOf('!');
                if (bang > 0) {
                    AgentKind kind = VIEWS.get(name.substring(bang));
                    if (kind != null) {
                        String path = full.substring(ROOT.length() + 1, full.length() - name.length() + bang);
                        found.add(new Binding(name.substring(0, bang), path, kind, full));
                    }
                } else if (depth < 2) {
                    try {
                        walk(jndi, full, depth + 1, found);
                    } catch (NamingException notAContext) {
                        // a plain binding, not a module: nothing below it
                    }
                }
            }
        } finally {
            names.close();
        }
    }

    private record Binding(String bean, String path, AgentKind kind, String jndiName) {
    }
}
