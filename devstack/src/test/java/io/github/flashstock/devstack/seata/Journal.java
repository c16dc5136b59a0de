package io.github.flashstock.devstack.seata;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Which TCC phase ran for which transaction: "phase xid payload", in order. */
@Component
public class Journal {

    private final List<String> entries = new CopyOnWriteArrayList<>();

    void add(String entry) {
        entries.add(entry);
    }

    public List<String> entries() {
        return List.copyOf(entries);
    }
}
