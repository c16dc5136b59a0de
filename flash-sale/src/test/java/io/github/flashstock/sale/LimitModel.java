package io.github.flashstock.sale;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules of stock and of the per-user limit, sequentially, as a buyer and an operator may rely on them: the
 * specification {@link LimitHistoryIT} holds the real stores to (docs/design.md, "One buyer count"). Read top to bottom.
 *
 * <p>A SKU has units {@code stocked} (creation and restocks), of which {@code sold} are sold, the rest available in one
 * of the two stores (Redis or the MySQL store's allotment: where is the stores' business, never the buyer's). A buyer
 * holds the units of their confirmed orders of the SKU, never more than its per-user limit. An order is all or nothing
 * over its lines. An order that commits sells its units; one that rolls back after its Try sells nothing.
 *
 * <p>Orders placed at once are decided in some order: their answers must be those of one sequence. The model checks
 * that each answer names a reason that is true of some moment of the step (a refusal for the limit: the buyer holds
 * too many for it; for stock: too few units are left), and that what was sold is what the confirmed answers say. A
 * moment of the step is the state it ends in, with the units of the step's orders that reserved and were then rolled
 * back (answered {@code injected-failure}) still held, as they were until their rollback: at most that many more held
 * by their buyers, that many fewer available.
 */
final class LimitModel {

    /** One SKU as the rules see it. */
    static final class Sku {
        final String id;
        /** Units per buyer at most, 0 for none; an operator may change it live. */
        long limit;
        long stocked;
        long sold;
        /** Units of confirmed orders, by buyer. */
        final Map<String, Long> bought = new TreeMap<>();

        Sku(String id, long stocked, long limit) {
            this.id = id;
            this.stocked = stocked;
            this.limit = limit;
        }

        long available() {
            return stocked - sold;
        }

        long held(String buyer) {
            return bought.getOrDefault(buyer, 0L);
        }
    }

    /** One order of a step: its buyer, its lines (SKU to units), whether it commits after its Try. */
    record Order(String buyer, Map<String, Integer> lines, boolean commits) {
    }

    /** What the buyer was told: the status and, for a problem, its type (without the urn prefix) and SKU. */
    record Answer(int status, String type, String skuId) {
    }

    final Map<String, Sku> skus = new LinkedHashMap<>();

    void add(Sku sku) {
        skus.put(sku.id, sku);
    }

    void restock(String skuId, long units) {
        skus.get(skuId).stocked += units;
    }

    /**
     * The SKU's limit changed live (0: none): what buyers hold stays theirs, even above a lowered limit; what they
     * buy from now on is held to the new one.
     */
    void changeLimit(String skuId, long limit) {
        skus.get(skuId).limit = limit;
    }

    /**
     * Applies one step of orders placed at once and returns why an answer is not one the rules allow (empty: every
     * answer is). A confirmed order sells its lines; every other answer sells nothing.
     */
    List<String> apply(List<Order> orders, List<Answer> answers) {
        List<String> wrong = new ArrayList<>();
        java.util.Set<String> buyersNow = new java.util.TreeSet<>();
        for (int i = 0; i < orders.size(); i++) {
            Order o = orders.get(i);
            Answer a = answers.get(i);
            if (a.status() == 201) {
                o.lines().keySet().forEach(sku -> buyersNow.add(sku + " " + o.buyer()));
                if (!o.commits()) {
                    wrong.add(o + " rolled back, yet answered 201");
                }
                o.lines().forEach((sku, units) -> {
                    Sku s = skus.get(sku);
                    s.sold += units;
                    s.bought.merge(o.buyer(), (long) units, Long::sum);
                });
            }
        }
        // every promise at the end of the step
        for (Sku s : skus.values()) {
            if (s.sold > s.stocked) {
                wrong.add(s.id + " oversold: " + s.sold + " of " + s.stocked);
            }
            s.bought.forEach((buyer, units) -> {
                // a buyer who bought now holds no more than the limit; one who did not may hold more of a lowered one
                if (s.limit > 0 && units > s.limit && buyersNow.contains(s.id + " " + buyer)) {
                    wrong.add(buyer + " holds " + units + " of " + s.id + ", above its limit " + s.limit);
                }
            });
        }
        // the units the step's rolled-back orders held while they were open: by SKU, and by SKU and buyer
        Map<String, Long> heldOpen = new TreeMap<>();
        Map<String, Long> heldOpenByBuyer = new TreeMap<>();
        for (int i = 0; i < orders.size(); i++) {
            Order o = orders.get(i);
            if (!o.commits() && answers.get(i).status() == 500 && "injected-failure".equals(answers.get(i).type())) {
                o.lines().forEach((sku, units) -> {
                    heldOpen.merge(sku, (long) units, Long::sum);
                    heldOpenByBuyer.merge(sku + " " + o.buyer(), (long) units, Long::sum);
                });
            }
        }
        // every refusal names a reason true of some moment of the step
        for (int i = 0; i < orders.size(); i++) {
            Order o = orders.get(i);
            Answer a = answers.get(i);
            if (a.status() == 201 || a.status() == 500 && "injected-failure".equals(a.type()) && !o.commits()) {
                continue;
            }
            Sku s = a.skuId() == null ? null : skus.get(a.skuId());
            Integer units = s == null ? null : o.lines().get(s.id);
            long mostHeld = s == null ? 0 : s.held(o.buyer()) + heldOpenByBuyer.getOrDefault(s.id + " " + o.buyer(), 0L);
            long fewestLeft = s == null ? 0 : s.available() - heldOpen.getOrDefault(s.id, 0L);
            String why = switch (a.status() + " " + a.type()) {
                case "409 purchase-limit-exceeded" -> s != null && units != null && s.limit > 0
                        && mostHeld + units > s.limit ? null : "the buyer held at most " + mostHeld + " during the"
                        + " step, " + units + " more are within the limit " + (s == null ? "?" : s.limit);
                case "409 insufficient-stock" -> s != null && units != null && fewestLeft < units ? null
                        : "at least " + fewestLeft + " unit(s) were left during the step for " + units;
                // "not now", true while the SKU is rebuilt or the MySQL store has no capacity this second, or the
                // buyer's order rate is spent: nothing sold, nothing to hold against the rules
                case "503 sku-rebuilding", "503 mysql-store-busy", "429 too-many-orders" -> null;
                default -> "an answer no order of this step should get";
            };
            if (why != null) {
                wrong.add(o + " answered " + a + ": untrue, " + why);
            }
        }
        return wrong;
    }
}
