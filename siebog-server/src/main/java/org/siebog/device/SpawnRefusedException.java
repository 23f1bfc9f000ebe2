package org.siebog.device;

import org.siebog.api.SiebogException;

/** A {@code spawn} a device may not make (docs/device-protocol.md, "Admission"): nothing was started. */
final class SpawnRefusedException extends SiebogException {

    private SpawnRefusedException(String message) {
        super(message);
    }

    static SpawnRefusedException onAnotherDevice(String self, String requested) {
        return new SpawnRefusedException("a device may place agents only on itself: 'device' must be " + self
                + " or absent, not '" + DeviceFrames.quote(requested, DeviceFrames.QUOTED_CHARS) + "'");
    }

    static SpawnRefusedException notSpawnable(String agentClass, SpawnPolicy policy) {
        return new SpawnRefusedException("devices may not start agents of class " + DeviceFrames.quote(agentClass, DeviceFrames.QUOTED_CHARS)
                + ": only " + SpawnPolicy.PROPERTY + " (" + DeviceFrames.quote(policy.written(), DeviceFrames.QUOTED_CHARS)
                + ") may; an admin starts others through POST /api/agents");
    }

    @Override
    public int status() {
        return 403;
    }
}
