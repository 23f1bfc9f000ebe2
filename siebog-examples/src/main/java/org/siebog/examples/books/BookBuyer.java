package org.siebog.examples.books;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AID;
import org.siebog.api.AbstractAgent;
import org.siebog.api.ContractNet;
import org.siebog.api.DirectoryFacilitator;
import org.siebog.api.InteractionFailedException;
import org.siebog.api.InvalidAgentRequestException;
import org.siebog.api.Performative;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.api.StatefulAgent;

/**
 * JADE's book buyer, on Siebog: start it with {@code {"title": "Moby Dick", "maxPrice": "11.00"}}
 * (and {@code "retryMs"}, 5,000 by default); it finds the sellers in the directory facilitator,
 * calls for proposals (Contract Net, 2 s to propose), accepts the cheapest at or under its
 * maximum and rejects the rest, and tries again every {@code retryMs} until it has bought the book.
 * A QUERY_REF is answered with INFORM {@code bought <title> from <seller AID> at <price>}, or
 * {@code not bought: <reason>} while it is still trying. The client agent {@code BrowserBookBuyer}
 * does the same from a browser.
 */
@Stateful
public class BookBuyer extends AbstractAgent implements StatefulAgent {

    static final Duration PROPOSALS_DUE = Duration.ofSeconds(2);
    static final Duration AWARD_TIMEOUT = Duration.ofSeconds(5);
    static final String RETRY = "retry";

    @EJB(lookup = DirectoryFacilitator.JNDI_NAME)
    private transient DirectoryFacilitator df;

    private String title;
    private BigDecimal maxPrice;
    private Duration retry;
    private String bought;
    private String notBought = "not bought: no round yet";
    /** When the round in progress began (0: none): a round lost to a failover is begun again when it is overdue. */
    private long roundBegan;

    @Override
    protected void onStart(Map<String, String> args) {
        title = args.get("title");
        if (title == null || title.isBlank()) {
            throw new InvalidAgentRequestException("a book buyer needs a \"title\"");
        }
        maxPrice = Books.price(args.get("maxPrice"), "maxPrice");
        retry = Duration.ofMillis(Long.parseLong(args.getOrDefault("retryMs", "5000")));
        tryToBuy();
    }

    @Override
    protected void onMessage(ACLMessage message) {
        switch (message.performative()) {
            case QUERY_REF -> {
                send(reply(message, Performative.INFORM).content(bought != null ? bought : notBought));
                if (roundOverdue()) {
                    tryToBuy();
                }
            }
            case INFORM -> {
                if (RETRY.equals(message.conversationId()) && aid().equals(message.sender()) && bought == null && roundBegan == 0) {
                    tryToBuy();
                }
            }
            default -> { } // a seller's late word, or anyone else's: nothing to do
        }
    }

    /** One round: the sellers, their proposals, the cheapest affordable one accepted; another round later unless bought. */
    private void tryToBuy() {
        List<AID> sellers = df.search(ServiceTemplate.ofType(Books.SERVICE_TYPE), 100).stream().map(ServiceEntry::agent).toList();
        if (sellers.isEmpty()) {
            retryLater("no sellers in the directory");
            return;
        }
        roundBegan = System.currentTimeMillis();
        ContractNet.callForProposals(this, ACLMessage.builder(Performative.CALL_FOR_PROPOSAL).receivers(sellers).content(title).build(),
                        PROPOSALS_DUE)
                .thenCompose(proposals -> {
                    ACLMessage cheapest = proposals.stream().filter(p -> price(p) != null && price(p).compareTo(maxPrice) <= 0)
                            .min(Comparator.comparing(BookBuyer::price)).orElse(null);
                    String unaffordable = cheapest != null ? null : proposals.isEmpty() ? "no seller offers " + title
                            : "no offer at or under " + maxPrice.toPlainString() + " (" + proposals.size() + " above it)";
                    return ContractNet.award(this, proposals, cheapest, title, AWARD_TIMEOUT).handle((sold, failure) -> {
                        if (sold != null) {
                            return "bought " + title + " from " + sold.sender() + " at " + price(cheapest).toPlainString();
                        }
                        throw new CompletionException(unaffordable != null ? new InteractionFailedException(unaffordable, null) : cause(failure));
                    });
                })
                .whenComplete((done, failure) -> {
                    roundBegan = 0;
                    if (done != null) {
                        bought = done;
                    } else {
                        retryLater(cause(failure).getMessage());
                    }
                });
    }

    /** Whether a round began long ago and never ended: its node died meanwhile, and its answers went with it. */
    private boolean roundOverdue() {
        return bought == null && roundBegan != 0
                && System.currentTimeMillis() - roundBegan > PROPOSALS_DUE.plus(AWARD_TIMEOUT).plusSeconds(5).toMillis();
    }

    private static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private void retryLater(String reason) {
        notBought = "not bought: " + reason;
        sendLater(ACLMessage.builder(Performative.INFORM).receiver(aid()).conversationId(RETRY).content(RETRY).build(), retry);
    }

    /** A proposal's price, or null when it is not a decimal number. */
    private static BigDecimal price(ACLMessage proposal) {
        try {
            return new BigDecimal(proposal.content().trim());
        } catch (NumberFormatException | NullPointerException e) {
            return null;
        }
    }
}
