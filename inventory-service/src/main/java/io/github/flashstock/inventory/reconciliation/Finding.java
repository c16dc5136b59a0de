package io.github.flashstock.inventory.reconciliation;

import java.util.Map;

/** One disagreement a reconciliation run found, with the amounts that show it. */
public record Finding(Kind kind, String skuId, Map<String, Object> facts) {

    public enum Kind {
        /** Redis and MySQL disagree on the SKU's unsold or sold units (and still do after a recheck). */
        REDIS_MYSQL_DRIFT,
        /** MySQL knows the SKU, Redis does not (it is loaded on first use; reported, not repaired). */
        REDIS_MISSING,
        /** A reservation has been TRIED for longer than the threshold; facts include the TC's view. */
        OVERDUE_RESERVATION,
        /** A TRIED reservation has no ledger row after the grace period. */
        LEDGER_MISSING,
        /**
         * The ledger's confirmed units differ from MySQL's sold count, or the ledger says a reservation ended that
         * Redis still holds as TRIED.
         */
        LEDGER_CONTRADICTS,
        /**
         * The TC has held a global session longer than the threshold; facts: its status, age, branches as the TC
         * sees them, and the ledger's state of every reservation under that XID (the branch's work as our stores
         * see it). The SKU is the first one the ledger names, empty when it names none.
         */
        OVERDUE_GLOBAL_SESSION,
        /**
         * A Confirm of a committed transaction found no reservation record in Redis (the Try never reached it, or
         * Redis lost it) and fewer units available than the transaction holds: those units were sold to someone
         * else as well. Facts: xid, reservation id, units. Reported on every run until an operator settles it.
         */
        OVERSOLD_CONFIRM,
        /**
         * The MySQL store's counts in {@code sku_stock} ({@code reserved}, {@code allotment_sold}) differ from its
         * ledger rows (store MYSQL, TRIED and CONFIRMED); facts: both of each.
         */
        ALLOTMENT_DRIFT,
        /**
         * A handover between Redis and the allotment has stayed PENDING longer than the threshold (its Redis step
         * cannot run: Redis out of reach, the SKU stale); facts: operation id, direction, units, age.
         */
        HANDOVER_PENDING,
        /**
         * The coordinator committed a transaction whose Try of this reservation the service had refused (a caller
         * that went on after the refusal, or one that attached a line to another's transaction). Nothing was sold:
         * the refusal's record made the Confirm take nothing. Facts: xid, reservation id, units asked, refusal, when
         * the Confirm came. Reported on every run; the ledger keeps it.
         */
        CONFIRM_OF_REFUSED_TRY,
        /**
         * Buyers bought more of the SKU than its per-user limit, counting both stores' sales. While Redis can be asked,
         * one count decides the limit and this cannot happen; while it cannot, the MySQL store counts from the ledger,
         * which learns of Redis's units late, so a buyer may get at most the units they had in flight in Redis then
         * (docs/design.md, "One buyer count"). Facts: the limit, how many buyers, the units above the limit in all, and
         * the first buyers with their units. Reported on every run: nothing repairs a sale.
         */
        LIMIT_EXCESS
    }
}
