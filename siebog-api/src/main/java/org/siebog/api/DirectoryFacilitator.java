package org.siebog.api;

import java.time.Duration;
import java.util.List;

/**
 * The yellow pages: agents register the services they offer, and find the agents that offer a
 * service by searching for it. There is no DF agent to be a bottleneck or a single point of
 * failure: the entries are replicated to every node, so a search is answered by the caller's own
 * node and the directory outlives any node. An entry goes when its agent deregisters it, when its
 * lease runs out without being renewed, or when the agent stops (a client agent's entries stay
 * while it moves to another device).
 *
 * <p>For Java code: {@code @EJB(lookup = DirectoryFacilitator.JNDI_NAME) transient DirectoryFacilitator df;}
 * (in an agent, keep the field {@code transient}). Agents anywhere, including client agents in
 * browsers, reach the same directory as the FIPA agent {@code df@<platform>} (REQUEST register,
 * modify, deregister, search: see {@code docs/agents.md}), and outside callers through
 * {@code GET /api/services}.
 *
 * <pre>{@code
 * df.register(aid(), ServiceDescription.of("book-selling", "books"), Duration.ofMinutes(5));
 * List<ServiceEntry> sellers = df.search(ServiceTemplate.ofType("book-selling"), 100);
 * }</pre>
 *
 * <p>An agent can also {@link #subscribe} to the changes of the services it is interested in.
 * Registering and deregistering write to every node before they return; searching reads this
 * node only. Results come in a fixed order (by agent, then service name), so a long listing is read
 * page by page with {@link #search(ServiceTemplate, ServiceEntry, int)}.
 */
public interface DirectoryFacilitator {

    /** Where the DirectoryFacilitator is bound, for beans in other deployments to look it up. */
    String JNDI_NAME = "java:global/siebog/siebog-server/DirectoryFacilitatorBean!org.siebog.api.DirectoryFacilitator";

    /**
     * Registers {@code service} for {@code agent}, or replaces the agent's service of the same
     * name (which renews its lease).
     *
     * @param agent   a running agent
     * @param service what it offers
     * @param lease   how long the entry holds unless registered again, or null for as long as the
     *                agent runs; at most {@code siebog.df.max-lease-ms} (a day)
     * @return the entry as registered
     * @throws UnknownAgentException      the agent is not running
     * @throws InvalidAgentRequestException a field is over its limit, the lease is out of range, or the
     *                                    agent has as many services as it may ({@code siebog.df.max-services-per-agent})
     */
    ServiceEntry register(AID agent, ServiceDescription service, Duration lease);

    /**
     * Changes a registered service (FIPA's modify): as {@link #register}, but only when the agent
     * has a service of that name.
     *
     * @param agent   the agent
     * @param service the new description, under the old name
     * @param lease   as in {@link #register}
     * @return the entry as registered
     * @throws UnknownServiceException the agent has no service of that name
     */
    ServiceEntry modify(AID agent, ServiceDescription service, Duration lease);

    /**
     * Removes one of the agent's services.
     *
     * @param agent       the agent
     * @param serviceName the service's name
     * @throws UnknownServiceException the agent has no service of that name
     */
    void deregister(AID agent, String serviceName);

    /**
     * The services that match {@code template}, at most {@code maxResults}, by agent and then
     * service name.
     *
     * @param template   what to look for
     * @param maxResults the most entries to answer, 1 to 1,000
     * @return the first entries that match
     * @throws InvalidAgentRequestException {@code maxResults} out of range
     */
    List<ServiceEntry> search(ServiceTemplate template, int maxResults);

    /**
     * The next page of a search: the entries that match {@code template} after {@code after}.
     *
     * @param template   what to look for
     * @param after      the last entry of the previous page, or null for the first page
     * @param maxResults the most entries to answer, 1 to 1,000
     * @return the entries that match, after {@code after}
     * @throws InvalidAgentRequestException {@code maxResults} out of range
     */
    List<ServiceEntry> search(ServiceTemplate template, ServiceEntry after, int maxResults);

    /**
     * Tells {@code subscriber} of every change to the services that match {@code template}, as
     * messages: an INFORM from {@code df@<platform>} per change, in the conversation named by the
     * returned id (protocol {@code fipa-subscribe}, language {@code json}), whose content is
     * {@code {"change": "registered" | "modified" | "deregistered" | "expired", "entry": {...}}}.
     * One node sends each notification (the one that made the change, or for an expiry one chosen
     * by the entry); a notification may be lost while nodes join or leave, so a subscriber that
     * must not miss one searches again after a {@code node-left} event.
     *
     * @param subscriber the agent to tell; its subscriptions end when it stops
     * @param template   the services it wants to hear of
     * @param lease      how long the subscription holds unless made again, or null for as long as the
     *                   subscriber runs; at most {@code siebog.df.max-lease-ms}
     * @return the subscription's id, the {@code conversationId} of its notifications
     * @throws UnknownAgentException        the subscriber is not running
     * @throws InvalidAgentRequestException the template is over its limits, the lease out of range, or
     *                                      the agent has as many subscriptions as it may
     *                                      ({@code siebog.df.max-services-per-agent})
     */
    String subscribe(AID subscriber, ServiceTemplate template, Duration lease);

    /**
     * Ends a subscription.
     *
     * @param subscriber the agent that subscribed
     * @param subscriptionId what {@link #subscribe} returned
     * @return false when there was no such subscription (never made, ended, or its lease ran out)
     */
    boolean unsubscribe(AID subscriber, String subscriptionId);
}
