package io.github.flashstock.inventory.stock;

/**
 * One {@code stock_ledger} row as a second phase reads it: {@code store} REDIS or MYSQL (the store that holds the
 * reservation), {@code state} TRIED, CONFIRMED, CANCELLED or REFUSED ({@code refusal} then says which refusal); {@code userId} null on rows written before buyers were
 * recorded; {@code branchId} the branch of the Try attempt that wrote the row (null where none was known).
 */
public record LedgerRow(long id, String skuId, long quantity, String state, String store, String userId,
                        String refusal, Long branchId) {

    public boolean heldByMysql() {
        return "MYSQL".equals(store);
    }

    public boolean tried() {
        return "TRIED".equals(state);
    }
}
