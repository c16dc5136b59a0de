package io.github.flashstock.floor;

import org.apache.seata.core.context.RootContext;
import org.apache.seata.spring.annotation.GlobalTransactional;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;
import org.springframework.web.client.RestClient;

/** The front's global transaction: the local fenced branch, then the back's branch over HTTP; commits on return. */
@Service
public class FloorTransactions {

    private final LocalBranch local;
    private final RestClient back;

    FloorTransactions(LocalBranch local, RestClient backClient) {
        this.local = local;
        this.back = backClient;
    }

    /** @return the XID, committed when this returns; any exception rolls both branches back */
    @GlobalTransactional(name = "floor", timeoutMills = 30_000)
    public String run() {
        local.prepare(null);
        back.post().uri("/floor/branch").contentType(MediaType.APPLICATION_JSON).body("{}").retrieve()
                .toBodilessEntity();
        return RootContext.getXID();
    }
}
