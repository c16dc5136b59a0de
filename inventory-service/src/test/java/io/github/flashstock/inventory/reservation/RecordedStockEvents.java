package io.github.flashstock.inventory.reservation;

import io.github.flashstock.inventory.events.StockMoved;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.event.EventListener;

/** Every {@link StockMoved} event the service publishes, from any thread (the TC's calls arrive on Seata's). */
public class RecordedStockEvents {

    private final List<StockMoved> events = new CopyOnWriteArrayList<>();

    @EventListener
    void on(StockMoved event) {
        events.add(event);
    }

    public List<StockMoved> of(String xid) {
        return events.stream().filter(e -> e.xid().equals(xid)).toList();
    }
}
