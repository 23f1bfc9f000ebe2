package org.siebog.placement;

import org.siebog.platform.Setting;

/** Makes the selector that {@code siebog.placement} names. */
public final class PlacementSelectors {

    public static final String PROPERTY = Setting.PLACEMENT.property();

    private PlacementSelectors() {
    }

    public static PlacementSelector fromSystemProperty() {
        return named(Setting.PLACEMENT.text().orElseThrow(), PlacementSelectors.class.getClassLoader());
    }

    /**
     * @throws IllegalArgumentException the name is neither a built-in selector nor a loadable
     *                                  {@link PlacementSelector} class
     */
    public static PlacementSelector named(String name, ClassLoader loader) {
        switch (name) {
            case "round-robin":
                return new RoundRobinSelector();
            case "random":
                return new RandomSelector();
            default:
                try {
                    Class<?> type = Class.forName(name, true, loader);
                    return type.asSubclass(PlacementSelector.class).getConstructor().newInstance();
                } catch (ReflectiveOperationException | ClassCastException e) {
                    throw new IllegalArgumentException(PROPERTY + "=" + name
                            + ": expected round-robin, random or the name of a PlacementSelector class with a public no-argument constructor ("
                            + e + ")", e);
                }
        }
    }
}
