package org.siebog.examples.books;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateful;

import org.siebog.api.ACLMessage;
import org.siebog.api.AbstractAgent;
import org.siebog.api.ContractNet;
import org.siebog.api.DirectoryFacilitator;
import org.siebog.api.Performative;
import org.siebog.api.ServiceDescription;
import org.siebog.api.StatefulAgent;

/**
 * JADE's book seller, on Siebog: start it with {@code {"catalogue": "Moby Dick=12.50;Dracula=7.25"}};
 * it offers its books in the directory facilitator (service type {@value Books#SERVICE_TYPE}) and
 * takes part in Contract Net: a call for proposals naming a title it has gets PROPOSE with the
 * price, else REFUSE; an accepted proposal sells the book (it leaves the catalogue) with INFORM
 * {@code sold <title> at <price>}, or FAILURE when it was sold meanwhile. A QUERY_REF gets the
 * catalogue as it is now. Buyers: {@link BookBuyer}, and the client agent {@code BrowserBookBuyer}.
 */
@Stateful
public class BookSeller extends AbstractAgent implements StatefulAgent {

    @EJB(lookup = DirectoryFacilitator.JNDI_NAME)
    private transient DirectoryFacilitator df;

    private final TreeMap<String, BigDecimal> catalogue = new TreeMap<>();

    @Override
    protected void onStart(Map<String, String> args) {
        catalogue.putAll(Books.catalogue(args.get("catalogue")));
        df.register(aid(), ServiceDescription.of(Books.SERVICE_TYPE, "books").withProtocols(ContractNet.PROTOCOL), null);
    }

    @Override
    protected void onMessage(ACLMessage message) {
        String title = message.content() == null ? "" : message.content().trim();
        switch (message.performative()) {
            case CALL_FOR_PROPOSAL -> {
                BigDecimal price = catalogue.get(title);
                send(price != null ? reply(message, Performative.PROPOSE).content(price.toPlainString())
                        : reply(message, Performative.REFUSE).content("not available: " + title));
            }
            case ACCEPT_PROPOSAL -> {
                BigDecimal price = catalogue.remove(title);
                send(price != null ? reply(message, Performative.INFORM).content("sold " + title + " at " + price.toPlainString())
                        : reply(message, Performative.FAILURE).content("sold meanwhile: " + title));
            }
            case REJECT_PROPOSAL, FAILURE -> { }
            case QUERY_REF -> send(reply(message, Performative.INFORM).content(Books.catalogueText(catalogue)));
            default -> send(reply(message, Performative.NOT_UNDERSTOOD).content("a book seller takes calls for proposals and QUERY_REF"));
        }
    }
}
