package io.github.flashstock.devstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A private MariaDB (MySQL protocol) with its own data directory. The first start initialises the directory;
 * every start then creates, idempotently, one database and one password user per service and applies the
 * schemas from {@code sql/} (they are written to be safe to run twice).
 */
final class MariaDbServer extends Server {

    /** Schema file applied to each database. */
    static final Map<String, String> SCHEMAS = Map.of(
            "inventory", "inventory.sql",
            "orders", "orders.sql",
            "seata", "seata-server.sql");

    private static final String OS_USER = System.getProperty("user.name");

    MariaDbServer(DevStackConfig config) {
        super(config);
    }

    @Override
    String name() {
        return "mariadb";
    }

    @Override
    List<Integer> ports() {
        return List.of(config.mariadbPort());
    }

    private Path dataDir() {
        return dir().resolve("data");
    }

    private Path socket() {
        return dir().resolve("mariadb.sock");
    }

    @Override
    void launch() {
        ensureDir(dir());
        if (!Files.isDirectory(dataDir().resolve("mysql"))) {
            // The OS user running the devstack gets a unix-socket account; that is how the bootstrap logs in.
            Processes.run(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + dataDir(),
                            "--user=" + OS_USER, "--auth-root-authentication-method=socket", "--skip-test-db"),
                    dir(), log("install"), Optional.empty(), config.startTimeout());
        }
        List<String> cmd = new ArrayList<>(List.of("mariadbd", "--no-defaults",
                "--datadir=" + dataDir(),
                "--port=" + config.mariadbPort(),
                "--bind-address=127.0.0.1",
                "--socket=" + socket(),
                "--pid-file=" + dataDir().resolve("mariadbd.pid"),
                "--skip-name-resolve",
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_unicode_ci",
                "--innodb-buffer-pool-size=128M",
                "--innodb-flush-log-at-trx-commit=1",
                "--max-connections=400",
                "--log-error=" + log("mariadbd")));
        if ("root".equals(OS_USER)) {
            cmd.add("--user=root");
        }
        Processes.launch(cmd, dir(), log("mariadbd-console"), pidFile("mariadbd"), Map.of());
    }

    @Override
    void awaitReady() {
        Processes.await("MariaDB on its socket " + socket(), config.startTimeout(), () -> {
            try {
                client(Optional.empty(), "SELECT 1");
                return true;
            } catch (IllegalStateException e) {
                return false;
            }
        });
        StringBuilder bootstrap = new StringBuilder();
        for (String db : DevStackConfig.DATABASES) {
            bootstrap.append("CREATE DATABASE IF NOT EXISTS `").append(db)
                    .append("` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;\n")
                    .append("CREATE USER IF NOT EXISTS '").append(db).append("'@'%' IDENTIFIED BY '")
                    .append(config.dbPassword()).append("';\n")
                    .append("ALTER USER '").append(db).append("'@'%' IDENTIFIED BY '")
                    .append(config.dbPassword()).append("';\n")
                    .append("GRANT ALL PRIVILEGES ON `").append(db).append("`.* TO '").append(db).append("'@'%';\n");
        }
        client(Optional.empty(), bootstrap.toString());
        for (String db : DevStackConfig.DATABASES) {
            Path schema = config.root().resolve("sql").resolve(SCHEMAS.get(db));
            if (!Files.isRegularFile(schema)) {
                throw new IllegalStateException("schema file missing: " + schema);
            }
            Processes.run(clientCommand(Optional.of(db), Optional.empty()), dir(), log("schema"),
                    Optional.of(schema), config.startTimeout());
        }
        Processes.await("MariaDB SELECT 1 over TCP on port " + config.mariadbPort(), config.startTimeout(),
                this::healthy);
    }

    @Override
    boolean healthy() {
        // bounded: a server frozen (SIGSTOP) accepts the connection in the kernel and never answers the handshake
        java.util.Properties props = new java.util.Properties();
        props.setProperty("user", "inventory");
        props.setProperty("password", config.dbPassword());
        props.setProperty("connectTimeout", "3000");
        props.setProperty("socketTimeout", "3000");
        try (Connection c = DriverManager.getConnection(config.jdbcUrl("inventory"), props);
             Statement s = c.createStatement()) {
            return s.executeQuery("SELECT 1").next();
        } catch (SQLException e) {
            return false;
        }
    }

    private void client(Optional<String> database, String sql) {
        Processes.run(clientCommand(database, Optional.of(sql)), dir(), log("client"), Optional.empty(),
                config.startTimeout());
    }

    private List<String> clientCommand(Optional<String> database, Optional<String> sql) {
        List<String> cmd = new ArrayList<>(List.of("mariadb", "--no-defaults", "--socket=" + socket(),
                "--user=" + OS_USER, "--batch"));
        sql.ifPresent(s -> cmd.add("--execute=" + s));
        database.ifPresent(cmd::add);
        return cmd;
    }
}
