package io.github.flashstock.floor;

import java.util.Map;
import org.apache.seata.core.context.RootContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /floor/transactions} (front): one global transaction, 201 once committed.
 * {@code POST /floor/branch} (back): registers the back's branch in the caller's global transaction (the XID from
 * {@code TX_XID}, bound by Seata's HTTP interceptor); 409 without one.
 */
@RestController
class FloorController {

    private final FloorTransactions transactions;
    private final RemoteBranch remote;

    FloorController(FloorTransactions transactions, RemoteBranch remote) {
        this.transactions = transactions;
        this.remote = remote;
    }

    @PostMapping("/floor/transactions")
    ResponseEntity<Map<String, String>> transaction() {
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("xid", transactions.run()));
    }

    @PostMapping("/floor/branch")
    ResponseEntity<Void> branch() {
        if (RootContext.getXID() == null) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        remote.prepare(null);
        return ResponseEntity.status(HttpStatus.CREATED).build();
    }
}
