package org.siebog.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.siebog.it.SiebogApi.message;

import java.util.List;
import java.util.Map;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.EnterpriseArchive;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.siebog.it.SiebogApi.Reply;

/**
 * The examples' book trading between server agents: sellers in the directory facilitator, buyers
 * that run Contract Net and buy from the cheapest at or under their price, the reasons a buyer
 * gives while it has not bought, and one copy wanted by two buyers sold once. The browser tests run
 * it between server and client agents, from the host page.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BookTradingIT {

    @Deployment(name = "siebog", order = 1, testable = false)
    static EnterpriseArchive deployment() {
        return SiebogDeployment.ear();
    }

    @Deployment(name = "examples", order = 2, testable = false)
    static WebArchive examples() {
        return SiebogDeployment.examples();
    }

    private final SiebogApi siebog = SiebogApi.testServer();

    @AfterEach
    void stopTraders() {
        siebog.stopAll("BookSeller");
        siebog.stopAll("BookBuyer");
    }

    @Test
    void aBuyerBuysFromTheCheapestSellerAtOrUnderItsPrice() {
        String dear = siebog.startAgent("BookSeller", "seller-dear", Map.of("catalogue", "Moby Dick=12.50;Ulysses=18.00"));
        String cheap = siebog.startAgent("BookSeller", "seller-cheap", Map.of("catalogue", "Moby Dick=10.99;Dracula=7.25"));
        assertEquals(2, siebog.get("services?type=book-selling").array().size(), "both offer their books in the directory");

        siebog.startAgent("BookBuyer", "buyer", Map.of("title", "Moby Dick", "maxPrice", "11"));
        assertEquals("bought Moby Dick from " + cheap + " at 10.99", awaitOutcome("buyer", "bought"));
        assertEquals("Dracula=7.25", query(cheap), "the sold book left the catalogue");
        assertEquals("Moby Dick=12.50;Ulysses=18.00", query(dear));

        siebog.startAgent("BookBuyer", "buyer-poor", Map.of("title", "Ulysses", "maxPrice", "10.00", "retryMs", "500"));
        assertEquals("not bought: no offer at or under 10.00 (1 above it)", awaitOutcome("buyer-poor", "not bought: no offer"));
        siebog.startAgent("BookBuyer", "buyer-picky", Map.of("title", "Emma", "maxPrice", "10.00", "retryMs", "500"));
        assertEquals("not bought: no seller offers Emma", awaitOutcome("buyer-picky", "not bought: no seller"));
        assertEquals("Moby Dick=12.50;Ulysses=18.00", query(dear), "nothing sold to them");
    }

    @Test
    void oneCopyWantedByTwoBuyersIsSoldOnce() {
        String seller = siebog.startAgent("BookSeller", "seller-one-copy", Map.of("catalogue", "Emma=5.00"));
        siebog.startAgent("BookBuyer", "buyer-1", Map.of("title", "Emma", "maxPrice", "9", "retryMs", "300"));
        siebog.startAgent("BookBuyer", "buyer-2", Map.of("title", "Emma", "maxPrice", "9", "retryMs", "300"));
        SiebogApi.await("one of them bought it", () -> List.of(query(SiebogApi.aid("buyer-1")), query(SiebogApi.aid("buyer-2"))).stream()
                .anyMatch(o -> o.startsWith("bought")));
        SiebogApi.sleep(1500); // the other tries again meanwhile
        List<String> outcomes = List.of(query(SiebogApi.aid("buyer-1")), query(SiebogApi.aid("buyer-2")));
        assertEquals(1, outcomes.stream().filter(o -> o.equals("bought Emma from " + seller + " at 5.00")).count(), outcomes::toString);
        assertTrue(outcomes.contains("not bought: no seller offers Emma"), outcomes::toString);
        assertEquals("", query(seller));
    }

    @Test
    void badArgumentsAreRefusedAndNothingStarts() {
        assertTrue(siebog.tryStartAgent("BookSeller", "bad-seller", Map.of("catalogue", "Emma")).assertError(400).contains("title=price"));
        assertTrue(siebog.tryStartAgent("BookSeller", "bad-price", Map.of("catalogue", "Emma=cheap")).assertError(400).contains("decimal"));
        assertTrue(siebog.tryStartAgent("BookBuyer", "bad-buyer", Map.of("title", "Emma")).assertError(400).contains("maxPrice"));
        assertEquals(List.of(), siebog.get("services?type=book-selling").array());
    }

    private String awaitOutcome(String buyer, String prefix) {
        String[] last = new String[1];
        SiebogApi.await(buyer + ": " + prefix, () -> (last[0] = query(SiebogApi.aid(buyer))).startsWith(prefix), () -> last[0]);
        return last[0];
    }

    private String query(String agent) {
        Reply answer = siebog.post("messages?awaitReplyMs=5000", message("QUERY_REF").to(agent).json().toString());
        assertEquals(200, answer.status(), answer::toString);
        return answer.object().getString("content", "");
    }
}
