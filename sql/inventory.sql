-- Inventory database: the durable record of stock (docs/design.md, "The inventory service").
-- Safe to run twice; stays inside the SQL that MySQL 8 and MariaDB 10.11 share. inventory-service applies it at
-- every start (packaged into its jar), so a table added here reaches databases made before it.

-- One row per SKU, in the words Redis uses too (docs/design.md, "Stock model"):
--   stocked   = units ever stocked (initial + restocks)
--   sold      = units sold by confirmed reservations
--   reserved  = units held by open Tries that ran on the MySQL store
--   available = stocked - sold - reserved, never negative (checked by the database too)
-- and the MySQL store's allotment, the units only the MySQL store may sell (docs/design.md, "When Redis is down"):
--   allotment_available = units of the allotment a MySQL-store Try may take now
--   allotment_incoming  = units a handover is moving from Redis to the allotment (not sellable by either store until
--                        Redis has given them up; then they join allotment_available)
--   allotment_sold      = units sold by confirmed MySQL-store reservations (part of sold)
-- Redis holds the rest: it may sell stocked - sold - reserved - allotment_available - allotment_incoming, and has
-- sold sold - allotment_sold. Units move between the two stores only through stock_handover.
-- A closed SKU (closed_at) sells nothing more in either store; once nothing of its sale is left to end, Redis lets go
-- of its keys (swept_at) and MySQL keeps the record (docs/design.md, "The end of a sale").
-- A database made by the first release (columns total, locked) is migrated by the service when it starts, and one
-- made before the allotment gets its two columns then (both 0: everything is Redis's).
CREATE TABLE IF NOT EXISTS sku_stock (
    sku_id          VARCHAR(64)  NOT NULL,
    stocked         BIGINT       NOT NULL DEFAULT 0,
    sold            BIGINT       NOT NULL DEFAULT 0,
    reserved        BIGINT       NOT NULL DEFAULT 0,
    allotment_available BIGINT    NOT NULL DEFAULT 0,
    allotment_incoming  BIGINT    NOT NULL DEFAULT 0,
    allotment_sold   BIGINT       NOT NULL DEFAULT 0,
    per_user_limit  INT          NULL     COMMENT 'max units one user may buy; NULL = no limit',
    version         BIGINT       NOT NULL DEFAULT 0,
    closed_at       TIMESTAMP(3) NULL     COMMENT 'when the sale was closed (POST /admin/skus/{id}/close): no Try since; NULL = open',
    swept_at        TIMESTAMP(3) NULL     COMMENT 'when Redis let go of the closed SKU''s keys (lua/sweep.lua)',
    created_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at      TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    PRIMARY KEY (sku_id),
    CONSTRAINT ck_sku_stock_counts CHECK (stocked >= 0 AND sold >= 0 AND reserved >= 0),
    CONSTRAINT ck_sku_stock_available CHECK (stocked - sold - reserved >= 0),
    CONSTRAINT ck_sku_stock_limit CHECK (per_user_limit IS NULL OR per_user_limit > 0),
    CONSTRAINT ck_sku_stock_allotment CHECK (allotment_available >= 0 AND allotment_incoming >= 0 AND allotment_sold >= 0
        AND allotment_sold <= sold AND stocked - sold - reserved - allotment_available - allotment_incoming >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- One row per (global transaction, reservation key, SKU): what a branch did to a SKU and how far it got.
-- The unique key makes a replayed Confirm or Cancel a no-op. Rows of Tries that ran in Redis (store REDIS) are
-- written by the ledger consumer from their stock events and moved on by the second phases; rows of Tries on the
-- MySQL store (store MYSQL, against the allotment) are written by the Try itself, in the transaction that takes the
-- units, and are the MySQL store's fence: a CANCELLED row refuses a late Try. A Cancel that found nothing anywhere
-- leaves a CANCELLED MYSQL row with redis_mirrored = 1 (a tombstone).
CREATE TABLE IF NOT EXISTS stock_ledger (
    id               BIGINT       NOT NULL AUTO_INCREMENT,
    xid              VARCHAR(128) NOT NULL,
    reservation_key  VARCHAR(128) NOT NULL COMMENT 'the caller''s idempotency key, e.g. the order id',
    branch_id        BIGINT       NULL,
    sku_id           VARCHAR(64)  NOT NULL,
    quantity         INT          NOT NULL,
    state            VARCHAR(16)  NOT NULL COMMENT 'TRIED | CONFIRMED | CANCELLED | REFUSED',
    store          VARCHAR(8)   NOT NULL COMMENT 'REDIS | MYSQL: where the Try reserved the units',
    user_id          VARCHAR(64)  NULL     COMMENT 'the buyer: per-user limits count both stores from here',
    redis_mirrored   TINYINT      NOT NULL DEFAULT 1
        COMMENT 'MYSQL rows: 0 until Redis reflects the row''s state (lua/mirror.lua: fence record, buyer count)',
    refusal          VARCHAR(32)  NULL
        COMMENT 'REFUSED rows: the Try''s refusal (insufficient-stock, purchase-limit-exceeded, stale-sku)',
    refused_confirm_at TIMESTAMP(3) NULL
        COMMENT 'REFUSED rows: when a Confirm met the refusal (a commit after a refused Try; a reconciler finding)',
    created_at       TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at       TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    PRIMARY KEY (id),
    UNIQUE KEY uk_stock_ledger_branch (xid, reservation_key, sku_id),
    KEY idx_stock_ledger_sku_state (sku_id, state),
    KEY idx_stock_ledger_state_updated (state, updated_at),
    KEY idx_stock_ledger_buyer (sku_id, user_id),
    KEY idx_stock_ledger_store (store, redis_mirrored),
    CONSTRAINT ck_stock_ledger_quantity CHECK (quantity > 0),
    CONSTRAINT ck_stock_ledger_state CHECK (state IN ('TRIED', 'CONFIRMED', 'CANCELLED', 'REFUSED')),
    CONSTRAINT ck_stock_ledger_backend CHECK (store IN ('REDIS', 'MYSQL'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Every restock applied to sku_stock, by the caller's operation id (the Idempotency-Key of
-- POST /admin/skus/{skuId}/restock): a replay finds its row and adds nothing. Written in the same transaction as
-- the stocked increment.
CREATE TABLE IF NOT EXISTS restock_operation (
    sku_id        VARCHAR(64)  NOT NULL,
    operation_id  VARCHAR(128) NOT NULL,
    units         BIGINT       NOT NULL,
    created_at    TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (sku_id, operation_id),
    CONSTRAINT ck_restock_operation_units CHECK (units > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Everything an operator did through /admin (nothing repairs silently): repairs, SKUs created, rebuilt and
-- restocked, handovers, settings published; on which SKU or reservation, what it found and did, and who asked (the
-- admin the bearer token names).
CREATE TABLE IF NOT EXISTS repair_audit (
    id               BIGINT        NOT NULL AUTO_INCREMENT,
    action           VARCHAR(32)   NOT NULL COMMENT 'RELOAD_SKU | RELEASE_RESERVATION | CREATE_SKU | REBUILD_SKU | RESTOCK | LIMIT | HANDOVER | SKU_SETTINGS',
    sku_id           VARCHAR(64)   NOT NULL,
    xid              VARCHAR(128)  NULL,
    reservation_key  VARCHAR(128)  NULL,
    detail           VARCHAR(2000) NOT NULL,
    actor            VARCHAR(64)   NOT NULL,
    created_at       TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (id),
    KEY idx_repair_audit_sku (sku_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Every move of units between the Redis store and the MySQL store's allotment, by operation id (idempotent, audited). MySQL
-- always goes first, in the transaction that writes the PENDING row, so that MySQL never counts a unit as the
-- reserve's while Redis may still sell it:
--   TO_MYSQL: allotment_incoming += units; then Redis gives up at most that many (lua/handover.lua, remembered under
--             the operation id); then, with the row marked DONE, allotment_incoming -= units and
--             allotment_available += moved (units Redis did not have stay Redis's).
--   TO_REDIS: allotment_available -= units; then Redis adds them (lua/handover.lua); then the row is marked DONE.
-- A PENDING row is an operation under way or cut short: the service completes it, every step being safe to
-- repeat. units is what was asked, moved what moved.
CREATE TABLE IF NOT EXISTS stock_handover (
    operation_id  VARCHAR(128)  NOT NULL,
    sku_id        VARCHAR(64)   NOT NULL,
    direction     VARCHAR(8)    NOT NULL COMMENT 'TO_MYSQL | TO_REDIS',
    units         BIGINT        NOT NULL,
    moved         BIGINT        NULL COMMENT 'units that moved; NULL while PENDING',
    state         VARCHAR(8)    NOT NULL COMMENT 'PENDING | DONE',
    reason        VARCHAR(200)  NOT NULL COMMENT 'who or what asked: an operator, the rebalancer, a restock',
    created_at    TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at    TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    PRIMARY KEY (operation_id),
    KEY idx_stock_handover_sku (sku_id, state),
    KEY idx_stock_handover_state (state, created_at),
    CONSTRAINT ck_stock_handover_units CHECK (units > 0 AND (moved IS NULL OR (moved >= 0 AND moved <= units))),
    CONSTRAINT ck_stock_handover_direction CHECK (direction IN ('TO_MYSQL', 'TO_REDIS')),
    CONSTRAINT ck_stock_handover_state CHECK (state IN ('PENDING', 'DONE'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
