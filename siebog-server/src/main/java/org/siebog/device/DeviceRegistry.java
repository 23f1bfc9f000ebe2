package org.siebog.device;

import java.util.Collection;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Every device joined to the cluster, whichever node holds its socket. */
interface DeviceRegistry {

    /** Records a device; false when its id is taken. */
    boolean register(Device device);

    /**
     * Changes a joined device's record, unless it left: {@code change} is applied again if another
     * change got in first, so two changes of different fields (its units, its backoff) never undo
     * each other.
     */
    void update(String id, UnaryOperator<Device> change);

    Optional<Device> find(String id);

    Collection<Device> all();

    void remove(String id);
}
