package org.siebog.agentmanager;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
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
 * <p>The walk is not cheap (WildFly answers a list of each plain binding with a NamingException,
 * and each bean has one), and every agent start asks for its class, so the classes found are kept
 * with the deployments they were found in: the names directly under {@code java:global} and under
 * {@link #CLIENT_AGENT_DEPLOYMENTS}. A start lists those two contexts again (no exceptions, a few
 * entries) and walks anew when they differ or its class is not known; the list of all classes is
 * always walked anew. So deploying or undeploying an agent jar or web application still shows at once.
 *
 * <p>Client (JavaScript) agent classes are the ES modules in the {@code agents/} directory of this web
 * application and of every other one on the node that names its context root under
 * {@code java:global/siebog-client-agents} (a String env-entry in its web.xml, e.g.
 * {@code java:global/siebog-client-agents/siebog-examples = /siebog-examples}): {@code agents/Echo.js} is
 * class {@code Echo}, which devices load from {@code /siebog/agents/Echo.js}; the examples' TspAnt from
 * {@code /siebog-examples/agents/TspAnt.js}. Devices load a module from the node they joined, so it is
 * always same-origin with the library's Worker. Like server classes, those of other deployments are
 * listed again when the deployments change: deploying or undeploying one shows at once.
 */
@ApplicationScoped
public class AgentClassRegistry {

    private static final Logger LOG = Logger.getLogger(AgentClassRegistry.class.getName());
    private static final String ROOT = "java:global";
    private static final Map<String, AgentKind> VIEWS = Map.of(
            "!" + StatefulAgent.class.getName(), AgentKind.STATEFUL,
            "!" + StatelessAgent.class.getName(), AgentKind.STATELESS);

    static final String CLIENT_AGENTS = "/agents/";
    /** Where other web deployments name their context roots (String env-entries): client agents are in their agents/. */
    static final String CLIENT_AGENT_DEPLOYMENTS = ROOT + "/siebog-client-agents";

    private final Set<String> warnedClashes = ConcurrentHashMap.newKeySet();

    /** Read once at deployment: a web app's files do not change while it runs. */
    private volatile List<AgentClass> clientClasses = List.of();
    /** This web application, through which other deployments' contexts are reached; null until it has started. */
    private volatile ServletContext web;

    /** Weld fires this with the ServletContext when the web application starts. */
    void readClientModules(@Observes @Initialized(ApplicationScoped.class) ServletContext web) {
        this.web = web;
        clientClasses = clientModules(web);
        listing = null; // a listing made before the web application started lacks its modules
    }

    /** The modules directly in a web context's agents/ directory, named by their file names. */
    private static List<AgentClass> clientModules(ServletContext context) {
        Set<String> paths = context.getResourcePaths(CLIENT_AGENTS);
        return paths == null ? List.of() : paths.stream()
                .filter(p -> p.endsWith(".js") && p.lastIndexOf('/') == CLIENT_AGENTS.length() - 1)
                .sorted()
                .map(p -> new AgentClass(p.substring(CLIENT_AGENTS.length(), p.length() - 3), AgentKind.CLIENT,
                        context.getContextPath() + p))
                .toList();
    }

    /** The last listing, and the deployments it was made from; null until the first question. */
    private volatile Listing listing;

    /**
     * A client module named like a server agent class, or like a client module found before it (this web
     * application's first, then the other deployments' by context root), is left out with a warning: a name
     * means one class.
     */
    public List<AgentClass> all() {
        Listing fresh = new Listing(deployments(), list()); // not on a hot path: always exact
        listing = fresh;
        return fresh.all();
    }

    /**
     * The class agents named {@code name} are started as. Kept from the last listing while the deployments
     * are the same ones: an archive redeployed under the same name without a class is seen by
     * {@link #all()} or after {@link #forget()}.
     */
    public Optional<AgentClass> find(String name) {
        return Optional.ofNullable(current(name).byName().get(name));
    }

    /** For a class whose binding has gone: the next question walks anew. */
    public void forget() {
        listing = null;
    }

    /** The listing for the deployments there now; walked anew if they changed or {@code wanted} is not in it. */
    private Listing current(String wanted) {
        Set<String> deployments = deployments();
        Listing known = listing;
        if (known == null || !known.deployments().equals(deployments) || !known.byName().containsKey(wanted)) {
            known = new Listing(deployments, list());
            listing = known;
        }
        return known;
    }

    /** What a deployment or undeployment changes: the names right under java:global and the client agents' roots. */
    private static Set<String> deployments() {
        Set<String> names = new HashSet<>();
        try {
            InitialContext jndi = new InitialContext();
            try {
                names.addAll(names(jndi, ROOT));
                try {
                    names(jndi, CLIENT_AGENT_DEPLOYMENTS).forEach(name -> names.add(CLIENT_AGENT_DEPLOYMENTS + "/" + name));
                } catch (NamingException none) {
                    // no deployment has named a context root for client agents
                }
            } finally {
                jndi.close();
            }
        } catch (NamingException e) {
            return Set.of(); // walk anew each time: list() logs why java:global cannot be read
        }
        return names;
    }

    private static List<String> names(InitialContext jndi, String context) throws NamingException {
        List<String> names = new ArrayList<>();
        NamingEnumeration<NameClassPair> list = jndi.list(context);
        try {
            while (list.hasMore()) {
                names.add(list.next().getName());
            }
        } finally {
            list.close();
        }
        return names;
    }

    private List<AgentClass> list() {
        List<AgentClass> all = new ArrayList<>(serverClasses());
        Set<String> taken = all.stream().map(AgentClass::name).collect(Collectors.toSet());
        List<AgentClass> clients = new ArrayList<>(clientClasses);
        clients.addAll(otherDeploymentsClientClasses());
        for (AgentClass client : clients) {
            if (!taken.add(client.name())) {
                if (warnedClashes.add(client.binding())) { // listed again after each deployment: say it once
                    LOG.warning(() -> "client agent module " + client.binding() + " is ignored: another agent class is named "
                            + client.name() + " too");
                }
            } else {
                all.add(client);
            }
        }
        all.sort(Comparator.comparing(AgentClass::name));
        return List.copyOf(all);
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

    /** The client modules of the web deployments named under {@link #CLIENT_AGENT_DEPLOYMENTS}, by context root. */
    private List<AgentClass> otherDeploymentsClientClasses() {
        ServletContext own = web;
        if (own == null) {
            return List.of();
        }
        List<String> roots = new ArrayList<>();
        try {
            InitialContext jndi = new InitialContext();
            try {
                NamingEnumeration<NameClassPair> names = jndi.list(CLIENT_AGENT_DEPLOYMENTS);
                try {
                    while (names.hasMore()) {
                        String name = names.next().getName();
                        if (jndi.lookup(CLIENT_AGENT_DEPLOYMENTS + "/" + name) instanceof String root) {
                            roots.add(root);
                        } else if (warnedClashes.add(CLIENT_AGENT_DEPLOYMENTS + "/" + name)) {
                            LOG.warning(() -> CLIENT_AGENT_DEPLOYMENTS + "/" + name + " is not a String naming a context root; ignored");
                        }
                    }
                } finally {
                    names.close();
                }
            } finally {
                jndi.close();
            }
        } catch (NamingException none) {
            return List.of(); // no deployment has named one: the context does not exist
        }
        List<AgentClass> found = new ArrayList<>();
        roots.stream().sorted().distinct().forEach(root -> {
            ServletContext other = root.startsWith("/") && !root.equals(own.getContextPath()) ? own.getContext(root) : null;
            // getContext answers the longest deployed prefix: only the context itself counts.
            if (other != null && other.getContextPath().equals(root)) {
                found.addAll(clientModules(other));
            } else if (warnedClashes.add(root)) {
                LOG.warning(() -> "client agents: no web application of this node is deployed at " + root
                        + " (named under " + CLIENT_AGENT_DEPLOYMENTS + ")");
            }
        });
        return found;
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

    /** The agent classes found, sorted by name, and the deployments they were found in. */
    private record Listing(Set<String> deployments, List<AgentClass> all, Map<String, AgentClass> byName) {

        Listing(Set<String> deployments, List<AgentClass> all) {
            this(Set.copyOf(deployments), all, all.stream().collect(Collectors.toUnmodifiableMap(AgentClass::name, c -> c)));
        }
    }
}
