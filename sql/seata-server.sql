-- Schema of the Seata TC (server 2.0.x) in `db` store mode: sessions, branches, row locks and the
-- distributed lock its recovery jobs take. Safe to run twice; common SQL of MySQL 8 and MariaDB 10.11.

CREATE TABLE IF NOT EXISTS global_table (
    xid                        VARCHAR(128)  NOT NULL,
    transaction_id             BIGINT        NULL,
    status                     TINYINT       NOT NULL,
    application_id             VARCHAR(32)   NULL,
    transaction_service_group  VARCHAR(32)   NULL,
    transaction_name           VARCHAR(128)  NULL,
    timeout                    INT           NULL,
    begin_time                 BIGINT        NULL,
    application_data           VARCHAR(2000) NULL,
    gmt_create                 DATETIME      NULL,
    gmt_modified               DATETIME      NULL,
    PRIMARY KEY (xid),
    KEY idx_status_gmt_modified (status, gmt_modified),
    KEY idx_transaction_id (transaction_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS branch_table (
    branch_id          BIGINT        NOT NULL,
    xid                VARCHAR(128)  NOT NULL,
    transaction_id     BIGINT        NULL,
    resource_group_id  VARCHAR(32)   NULL,
    resource_id        VARCHAR(256)  NULL,
    branch_type        VARCHAR(8)    NULL,
    status             TINYINT       NULL,
    client_id          VARCHAR(64)   NULL,
    application_data   VARCHAR(2000) NULL,
    gmt_create         DATETIME(6)   NULL,
    gmt_modified       DATETIME(6)   NULL,
    PRIMARY KEY (branch_id),
    KEY idx_xid (xid)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS lock_table (
    row_key         VARCHAR(128) NOT NULL,
    xid             VARCHAR(128) NULL,
    transaction_id  BIGINT       NULL,
    branch_id       BIGINT       NOT NULL,
    resource_id     VARCHAR(256) NULL,
    table_name      VARCHAR(32)  NULL,
    pk              VARCHAR(36)  NULL,
    status          TINYINT      NOT NULL DEFAULT 0 COMMENT '0 locked, 1 rolling back',
    gmt_create      DATETIME     NULL,
    gmt_modified    DATETIME     NULL,
    PRIMARY KEY (row_key),
    KEY idx_status (status),
    KEY idx_branch_id (branch_id),
    KEY idx_xid (xid)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- lock_value holds the TC's ip:port that has the lock (Seata's own script gives it 20 characters, one short of
-- 255.255.255.255:65535): a TC whose address does not fit never takes a lock, and so never runs a recovery job.
CREATE TABLE IF NOT EXISTS distributed_lock (
    lock_key    CHAR(20)    NOT NULL,
    lock_value  VARCHAR(64) NOT NULL,
    expire      BIGINT      NULL,
    PRIMARY KEY (lock_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

ALTER TABLE distributed_lock MODIFY lock_value VARCHAR(64) NOT NULL;

-- One row per recovery job; INSERT IGNORE keeps a second run from failing on the primary key.
INSERT IGNORE INTO distributed_lock (lock_key, lock_value, expire) VALUES ('AsyncCommitting', ' ', 0);
INSERT IGNORE INTO distributed_lock (lock_key, lock_value, expire) VALUES ('RetryCommitting', ' ', 0);
INSERT IGNORE INTO distributed_lock (lock_key, lock_value, expire) VALUES ('RetryRollbacking', ' ', 0);
INSERT IGNORE INTO distributed_lock (lock_key, lock_value, expire) VALUES ('TxTimeoutCheck', ' ', 0);
