package org.siebog.message;

import java.time.Duration;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.delivery.MessageRouter;

/** The MessageManager for callers outside an agent (REST, other deployments); agents send through their context. */
@Singleton
@Local(MessageManager.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class MessageManagerBean implements MessageManager {

    @Inject
    MessageRouter router;

    @Override
    public void post(ACLMessage message) {
        router.post(message);
    }

    @Override
    public void post(ACLMessage message, Duration delay) {
        router.post(message, delay);
    }
}
