package org.siebog.state;

/**
 * What an agent starts from: its last saved state and the version its next save must name.
 *
 * @param version 0 when the agent never saved; may be ahead of the stored state's own version when
 *                saves failed after their version was taken (see {@link StateManager#save})
 * @param state   the state as JSON text, or null when there is none
 */
public record SavedState(long version, String state) {

    public static final SavedState NONE = new SavedState(0, null);
}
