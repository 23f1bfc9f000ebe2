package org.siebog.df;

import java.time.Duration;
import java.util.List;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Local;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;

import org.siebog.api.AID;
import org.siebog.api.DirectoryFacilitator;
import org.siebog.api.ServiceDescription;
import org.siebog.api.ServiceEntry;
import org.siebog.api.ServiceTemplate;
import org.siebog.platform.Failures;

/** The directory facilitator for Java code ({@link DirectoryFacilitator#JNDI_NAME}): waits for {@link ServiceDirectory}'s writes. */
@Singleton
@Local(DirectoryFacilitator.class)
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class DirectoryFacilitatorBean implements DirectoryFacilitator {

    @Inject
    ServiceDirectory services;

    @Inject
    ServiceSubscriptions subscriptions;

    @Override
    public ServiceEntry register(AID agent, ServiceDescription service, Duration lease) {
        return Failures.written(services.register(agent, service, lease, false), "the directory");
    }

    @Override
    public ServiceEntry modify(AID agent, ServiceDescription service, Duration lease) {
        return Failures.written(services.register(agent, service, lease, true), "the directory");
    }

    @Override
    public void deregister(AID agent, String serviceName) {
        Failures.written(services.deregister(agent, serviceName), "the directory");
    }

    @Override
    public List<ServiceEntry> search(ServiceTemplate template, int maxResults) {
        return services.search(template, null, maxResults).entries();
    }

    @Override
    public List<ServiceEntry> search(ServiceTemplate template, ServiceEntry after, int maxResults) {
        return services.search(template, after == null ? null : ServiceDirectory.keyOf(after), maxResults).entries();
    }

    @Override
    public String subscribe(AID subscriber, ServiceTemplate template, Duration lease) {
        return Failures.written(subscriptions.subscribe(subscriber, template, lease), "the directory");
    }

    @Override
    public boolean unsubscribe(AID subscriber, String subscriptionId) {
        return subscriptions.unsubscribe(subscriber, subscriptionId);
    }
}
