package org.siebog.device;

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

    static final double DEFAULT_MAX_COMPUTE_UNITS = 10_000;

    static ComputeUnitPolicy current() {
        double max = DEFAULT_MAX_COMPUTE_UNITS;
        String written = System.getProperty("siebog.device.max-compute-units");
        if (written != null) {
            try {
                double parsed = Double.parseDouble(written.trim());
                max = parsed > 0 ? parsed : max;
            } catch (NumberFormatException e) {
                // the default, as documented
            }
        }
        return new ComputeUnitPolicy(Boolean.getBoolean("siebog.device.trust-claimed-compute-units"), max);
    }
}
