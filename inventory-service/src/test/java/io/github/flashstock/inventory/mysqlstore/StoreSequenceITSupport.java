package io.github.flashstock.inventory.mysqlstore;

import io.github.flashstock.inventory.InventoryITSupport;
import io.github.flashstock.inventory.allotment.StockHandover;
import io.github.flashstock.inventory.reconciliation.Reconciler;
import io.github.flashstock.inventory.reservation.ReservationAction;
import java.util.HashMap;
import java.util.Map;
import org.apache.seata.rm.tcc.api.BusinessActionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.TestRestTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the step-by-step tests of both stores share: the MySQL store and its mirror (a test holds the mirror's
 * monitor to keep it from running between steps), the participant, and the phase context Seata hands it.
 */
abstract class StoreSequenceITSupport extends InventoryITSupport {

    @Autowired
    MysqlReservations store;

    @Autowired
    MysqlStoreMirror mirror;

    @Autowired
    ReservationAction action;

    @Autowired
    StockHandover handover;

    @Autowired
    Reconciler reconciler;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    TestRestTemplate http;

    /** What Seata hands the participant's phases of a branch: the Try's action context ({@code lines}: sku*units). */
    static BusinessActionContext context(String xid, String branch, String reservation, String user, String lines) {
        BusinessActionContext context = new BusinessActionContext(xid, branch, new HashMap<>(Map.of(
                "reservationId", reservation, "userId", user, "lines", lines)));
        context.setActionName(ReservationAction.NAME);
        return context;
    }
}
