package org.siebog.topic;

import java.util.List;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.api.TopicSubscription;
import org.siebog.api.Topics;
import org.siebog.platform.Failures;

/** Topics for Java code ({@link Topics#JNDI_NAME}): waits for {@link TopicSubscriptions}' writes to reach every node. */
@Singleton
@Local(Topics.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class TopicsBean implements Topics {

    @Inject
    TopicSubscriptions subscriptions;

    @Override
    public void subscribe(AID agent, String topic, String group) {
        Failures.written(subscriptions.subscribe(agent, topic, group), "the subscriptions");
    }

    @Override
    public boolean unsubscribe(AID agent, String topic) {
        return Failures.written(subscriptions.unsubscribe(agent, topic), "the subscriptions");
    }

    @Override
    public List<TopicSubscription> subscribers(String topic) {
        return subscriptions.subscribers(topic);
    }

    @Override
    public List<TopicSubscription> subscriptionsOf(AID agent) {
        return subscriptions.subscriptionsOf(agent);
    }
}
