-- Order database of order-demo. Safe to run twice; common SQL of MySQL 8 and MariaDB 10.11.

CREATE TABLE IF NOT EXISTS orders (
    order_id    VARCHAR(64)  NOT NULL,
    user_id     VARCHAR(64)  NOT NULL,
    status      VARCHAR(16)  NOT NULL COMMENT 'PENDING | CONFIRMED | CANCELLED',
    xid         VARCHAR(128) NULL     COMMENT 'the Seata global transaction that placed the order',
    created_at  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    updated_at  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
    PRIMARY KEY (order_id),
    KEY idx_orders_user (user_id),
    KEY idx_orders_status (status),
    CONSTRAINT ck_orders_status CHECK (status IN ('PENDING', 'CONFIRMED', 'CANCELLED'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS order_line (
    order_id  VARCHAR(64) NOT NULL,
    line_no   INT         NOT NULL,
    sku_id    VARCHAR(64) NOT NULL,
    quantity  INT         NOT NULL,
    PRIMARY KEY (order_id, line_no),
    CONSTRAINT ck_order_line_quantity CHECK (quantity > 0),
    CONSTRAINT fk_order_line_order FOREIGN KEY (order_id) REFERENCES orders (order_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The order branch's record of an empty rollback: the Cancel of a transaction that found no order of it (it
-- overtook its Try). That transaction's Try, if it still comes, finds this row and is refused. Written only then.
CREATE TABLE IF NOT EXISTS order_fence (
    xid         VARCHAR(128) NOT NULL COMMENT 'the global transaction whose Cancel came before its Try',
    order_id    VARCHAR(64)  NOT NULL,
    created_at  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    PRIMARY KEY (xid, order_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- Seata's own TCC fence, for the floor of bin/bench-order (bench-floor's fenced local branch, useTCCFence = true),
-- which measures Seata's cost beside order-demo's. order-demo's branch does not use it: its fence is the order row.
-- Columns as the Seata client expects them.
CREATE TABLE IF NOT EXISTS tcc_fence_log (
    xid           VARCHAR(128) NOT NULL COMMENT 'global transaction id',
    branch_id     BIGINT       NOT NULL COMMENT 'branch transaction id',
    action_name   VARCHAR(64)  NOT NULL COMMENT 'TCC action name',
    status        TINYINT      NOT NULL COMMENT '1 tried, 2 committed, 3 rollbacked, 4 suspended',
    gmt_create    DATETIME(3)  NOT NULL,
    gmt_modified  DATETIME(3)  NOT NULL,
    PRIMARY KEY (xid, branch_id),
    KEY idx_tcc_fence_log_gmt_modified (gmt_modified),
    KEY idx_tcc_fence_log_status (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
