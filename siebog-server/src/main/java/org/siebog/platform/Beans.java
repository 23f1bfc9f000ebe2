package org.siebog.platform;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.weld.proxy.WeldClientProxy;

/**
 * The instance behind an application-scoped bean's client proxy, for the few references that every
 * message goes through.
 *
 * <p>Why: a call through Weld's client proxy looks up the interception context in a thread-local and
 * the bean's instance in its context, and a package-private method it calls by reflection. The
 * message path makes a dozen such calls per message, and in the two-node Sender/Receiver profile
 * they were 3.8% of the nodes' samples. An application-scoped bean has one instance for as long as
 * the application runs, so a reference to it stays right.
 *
 * <p>Take the instance where the bean is used, never in a {@code @PostConstruct}: getting it may
 * create the bean, and a bean being created there that calls back the one under construction would
 * get a second instance of it.
 */
public final class Beans {

    private Beans() {
    }

    /**
     * {@code bean}'s instance when {@code bean} is the client proxy of an application-scoped bean;
     * otherwise {@code bean} itself (a bean made by hand in a test, or any other scope, whose proxy must
     * stay).
     *
     * @param bean an injected reference
     * @param <T>  its type
     * @return the reference to call
     */
    @SuppressWarnings("unchecked")
    public static <T> T direct(T bean) {
        if (bean instanceof WeldClientProxy proxy && proxy.getMetadata().getBean().getScope() == ApplicationScoped.class) {
            return (T) proxy.getMetadata().getContextualInstance();
        }
        return bean;
    }
}
