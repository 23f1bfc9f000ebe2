package org.siebog.device;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.UnaryOperator;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;

import org.infinispan.AdvancedCache;
import org.infinispan.Cache;
import org.infinispan.context.Flag;
import org.siebog.directory.StringCaches;

/**
 * The devices in the replicated cache {@code devices} (defined in {@code cluster-profile.cli}):
 * every node can place a client agent on any device without asking another node.
 */
@ApplicationScoped
public class InfinispanDeviceRegistry implements DeviceRegistry {

    private AdvancedCache<String, String> cache;

    /** Parsed devices, reused while their JSON is unchanged: placement and the sweep read them all the time. */
    private final ConcurrentMap<String, Parsed> parsed = new ConcurrentHashMap<>();

    private record Parsed(String json, Device device) {
    }

    @Resource(lookup = "java:jboss/infinispan/cache/siebog/devices")
    void setCache(Cache<String, String> injected) {
        cache = StringCaches.raw(injected);
    }

    @Override
    public boolean register(Device device) {
        return cache.putIfAbsent(device.id(), device.toJson()) == null;
    }

    @Override
    public void update(String id, UnaryOperator<Device> change) {
        for (String json = cache.get(id); json != null; json = cache.get(id)) {
            if (cache.replace(id, json, change.apply(parse(id, json)).toJson())) {
                return;
            }
        }
    }

    @Override
    public Optional<Device> find(String id) {
        String json = cache.get(id);
        return json == null ? Optional.empty() : Optional.of(parse(id, json));
    }

    @Override
    public Collection<Device> all() {
        if (parsed.size() > cache.size() * 2 + 16) {
            parsed.keySet().retainAll(cache.keySet());
        }
        return cache.entrySet().stream().map(e -> parse(e.getKey(), e.getValue())).toList();
    }

    @Override
    public void remove(String id) {
        cache.withFlags(Flag.IGNORE_RETURN_VALUES).remove(id);
        parsed.remove(id);
    }

    /** Compares the stored text, so a reused device costs no JSON building or parsing. */
    private Device parse(String id, String json) {
        Parsed known = parsed.get(id);
        if (known != null && known.json().equals(json)) {
            return known.device();
        }
        Device device = Device.fromJson(id, json);
        parsed.put(id, new Parsed(json, device));
        return device;
    }
}
