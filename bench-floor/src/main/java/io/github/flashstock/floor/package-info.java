/**
 * The floor of {@code bin/bench-order}: what a Seata global transaction with two TCC branches costs on this
 * machine when the branches themselves do no work. The same jar runs twice: as the <em>front</em>
 * ({@code floor.role=front}), which opens the global transaction, runs a local branch with Seata's database fence
 * and calls the <em>back</em> ({@code floor.role=back}) over HTTP with the XID in {@code TX_XID}; the back registers
 * a branch of its own and answers. Both phases of both branches return true at once. The shape is order-demo's
 * (a fenced local branch, a remote branch over HTTP) without its SQL, its stock and its events.
 */
package io.github.flashstock.floor;
