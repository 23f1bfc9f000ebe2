package org.siebog.device;

import org.siebog.platform.Setting;

/**
 * How a node decides a joining device's compute units, read from its system properties at each join.
 *
 * @param trustClaims      {@code siebog.device.trust-claimed-compute-units}: take the units a {@code join}
 *                         claims (test deployments only: the browser tests, perf/devices and perf/ycsb force
 *                         their devices' units); otherwise every device is measured with a
 *                         {@link ComputeUnitChallenge} and any claim is ignored
 * @param maxComputeUnits  {@code siebog.device.max-compute-units}: the most a measured device gets, however
 *                         fast it answers (a browser's JavaScript does about 1,000)
 */
record ComputeUnitPolicy(boolean trustClaims, double maxComputeUnits) {

    static final double DEFAULT_MAX_COMPUTE_UNITS = Double.parseDouble(Setting.DEVICE_MAX_COMPUTE_UNITS.documentedDefault());

    static ComputeUnitPolicy current() {
        double max = Setting.DEVICE_MAX_COMPUTE_UNITS.doubleValue();
        if (!(max > 0)) {
            Setting.DEVICE_MAX_COMPUTE_UNITS.reportOnce(Double.toString(max), "above 0");
            max = DEFAULT_MAX_COMPUTE_UNITS;
        }
        return new ComputeUnitPolicy(Setting.DEVICE_TRUST_CLAIMED_COMPUTE_UNITS.booleanValue(), max);
    }
}
