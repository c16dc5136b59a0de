package io.github.flashstock.inventory.allotment;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The allotments in force ({@code inventory.mysql-store.allotment}: a default and per-SKU values, as units or a share of
 * the SKU's available units), read at start and again on every configuration change that touches them (a Nacos push,
 * or a refresh after a file change). Whoever must act on a change registers with {@link #whenChanged}.
 */
@Component
public class LiveAllotments {

    private final AllotmentSettingsReader reader;
    private final List<Runnable> listeners = new ArrayList<>();
    private volatile AllotmentPlan inForce;

    LiveAllotments(AllotmentSettingsReader reader) {
        this.reader = reader;
        this.inForce = reader.read(AllotmentPlan.NONE);
    }

    public AllotmentPlan inForce() {
        return inForce;
    }

    /** The allotment a SKU should hold when it has {@code available} units (neither sold nor held by open Tries). */
    public long targetFor(String skuId, long available) {
        return inForce.targetFor(skuId).unitsFor(available);
    }

    public synchronized void whenChanged(Runnable listener) {
        listeners.add(listener);
    }

    @EventListener(ApplicationStartedEvent.class)
    void started() {
        refresh();
    }

    @EventListener
    void changed(EnvironmentChangeEvent event) {
        if (event.getKeys().stream().anyMatch(k -> k.startsWith(AllotmentSettingsReader.PREFIX))) {
            refresh();
        }
    }

    /** Reads the settings again; tells the listeners when they changed. */
    public synchronized void refresh() {
        AllotmentPlan read = reader.read(inForce);
        if (!read.equals(inForce)) {
            inForce = read;
            listeners.forEach(Runnable::run);
        }
    }
}
