package org.siebog.perf.senderreceiver.jade;

import java.util.logging.Level;
import java.util.logging.Logger;

import jade.core.Profile;
import jade.core.ProfileImpl;
import jade.core.Runtime;

import org.siebog.perf.senderreceiver.child.ChildMain;

/**
 * What the JADE child JVMs ({@link JadeSenderReceiver}, {@link JadeReceiverContainer},
 * {@link JadeSenderContainer}) share beyond {@link ChildMain}: a quiet JADE on the loopback with no MTP.
 */
final class JadeChild {

    /** How a failure names it. */
    static final String NAME = "JADE";

    private JadeChild() {
    }

    /**
     * The JADE runtime, logging only real trouble (it logs every container and agent start at
     * INFO), leaving the JVM alone when containers end.
     */
    static Runtime runtime() {
        Logger.getLogger("").setLevel(Level.WARNING);
        Runtime runtime = Runtime.instance();
        runtime.setCloseVM(false);
        return runtime;
    }

    /** A container on the loopback at {@code localPort}: RMI IMTP (JADE's default), no GUI, no MTP. */
    static Profile profile(int localPort) {
        Profile profile = new ProfileImpl();
        profile.setParameter(Profile.GUI, "false");
        profile.setParameter(Profile.NO_MTP, "true");
        profile.setParameter(Profile.LOCAL_HOST, ChildMain.LOOPBACK);
        profile.setParameter(Profile.LOCAL_PORT, Integer.toString(localPort));
        return profile;
    }
}
