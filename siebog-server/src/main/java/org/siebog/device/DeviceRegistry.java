package org.siebog.device;

import java.util.Collection;
import java.util.Optional;

/** Every device joined to the cluster, whichever node holds its socket. */
public interface DeviceRegistry {

    /** Records a device; false when its id is taken. */
    boolean register(Device device);

    /** Records a device's new compute units. */
    void update(Device device);

    Optional<Device> find(String id);

    Collection<Device> all();

    void remove(String id);
}
