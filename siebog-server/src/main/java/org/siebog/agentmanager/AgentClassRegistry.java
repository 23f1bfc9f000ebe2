package org.siebog.agentmanager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import javax.naming.InitialContext;
import javax.naming.NameClassPair;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.servlet.ServletContext;

import org.siebog.agent.AgentClass;
import org.siebog.api.AgentKind;
import org.siebog.api.StatefulAgent;
import org.siebog.api.StatelessAgent;

/**
 * Finds agent classes in every deployment on the node, not from a list: every session bean that
 * exposes {@link StatefulAgent} or {@link StatelessAgent} is bound in {@code java:global} under
 * {@code app/module/Bean!org.siebog.api.StatefulAgent} (or {@code module/Bean!...} for a bare
 * EJB jar or WAR), and that binding names both the class and its kind.
 *
 * <p>The walk is repeated on each call, so deploying or undeploying an agent jar shows at once.
 * It is cheap (a few JNDI list calls) next to starting an agent.
 *
 * <p>Client (JavaScript) agent classes are the ES modules in the web application's {@code agents/}
 * directory: {@code agents/Echo.js} is class {@code Echo}, which devices load from
 * {@code /siebog/agents/Echo.js}.
 */
@ApplicationScoped
public class AgentClassRegistry {

    private static final Logger LOG = Logger.getLogger(AgentClassRegistry.class.getName());
    private static final String ROOT = "java:global";
    private static final Map<String, AgentKind> VIEWS = Map.of(
            "!" + StatefulAgent.class.getName(), AgentKind.STATEFUL,
            "!" + StatelessAgent.class.getName(), AgentKind.STATELESS);

    static final String CLIENT_AGENTS = "/agents/";

    private final Set<String> warnedClashes = ConcurrentHashMap.newKeySet();

    /** Read once at deployment: a web app's files do not change while it runs. */
    private volatile List<AgentClass> clientClasses = List.of();

    /** Weld fires this with the ServletContext when the web application starts. */
    void readClientModules(@Observes @Initialized(ApplicationScoped.class) ServletContext web) {
        Set<String> paths = web.getResourcePaths(CLIENT_AGENTS);
        clientClasses = paths == null ? List.of() : paths.stream()
                .filter(p -> p.endsWith(".js") && p.lastIndexOf('/') == CLIENT_AGENTS.length() - 1)
                .map(p -> new AgentClass(p.substring(CLIENT_AGENTS.length(), p.length() - 3), AgentKind.CLIENT,
                        web.getContextPath() + p))
                .toList();
    }

    /** A client module named like a server agent class is left out (with a warning): a name means one class. */
    public List<AgentClass> all() {
        List<AgentClass> all = new ArrayList<>(serverClasses());
        Set<String> taken = all.stream().map(AgentClass::name).collect(Collectors.toSet());
        for (AgentClass client : clientClasses) {
            if (taken.contains(client.name())) {
                if (warnedClashes.add(client.binding())) { // all() runs on every start: say it once
                    LOG.warning(() -> "client agent module " + client.binding() + " is ignored: a server agent class is named "
                            + client.name() + " too");
                }
            } else {
                all.add(client);
            }
        }
        all.sort(Comparator.comparing(AgentClass::name));
        return all;
    }

    private List<AgentClass> serverClasses() {
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
