package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import io.github.flashstock.devstack.junit.SharedStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Starts that must not happen, each checked on the real jar: the documented placeholder admin token, a Nacos that is
 * configured but cannot be reached, and the devstack's passwords without profile devstack. The JVM must exit on its
 * own, non-zero, saying why and what to do.
 */
class StartupRefusalsIT {

    private static final Path JAR = Path.of(System.getProperty("flashstock.inventory.jar",
            Services.Settings.jar(NacosFixture.ROOT, "inventory-service").toString()));

    record Exit(int code, String log) {
    }

    private static Exit run(Map<String, String> env) throws Exception {
        Endpoints stack = SharedStack.ensure(Component.defaults());
        Path log = Files.createTempFile("refused-start", ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", JAR.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("INVENTORY_PORT", Integer.toString(NacosFixture.freePort()));
        builder.environment().put("INVENTORY_DB_URL", stack.jdbcUrl("inventory"));
        builder.environment().put("REDIS_PORT", Integer.toString(stack.redisPort()));
        builder.environment().put("SEATA_ADDRESS", stack.seataAddress());
        builder.environment().put("ROCKETMQ_NAME_SERVER", stack.namesrvAddress());
        // the devstack's passwords, accepted in this profile only (each test but the one about them keeps it)
        builder.environment().put("SPRING_PROFILES_INCLUDE", "devstack");
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the JVM exits by itself").isTrue();
            return new Exit(process.exitValue(), Files.readString(log));
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void refusesToStartWithThePlaceholderAdminToken() throws Exception {
        Exit exit = run(Map.of("INVENTORY_ADMIN_TOKEN", "change-me-devstack-admin-token"));

        assertThat(exit.code()).isNotZero();
        assertThat(exit.log()).contains("Refusing to start: the admin token is the documented placeholder")
                .contains("INVENTORY_ADMIN_TOKEN");
    }

    @Test
    void refusesToStartWithTheDevstacksPasswordsOutsideProfileDevstack() throws Exception {
        long begin = System.nanoTime();

        Exit exit = run(Map.of("SPRING_PROFILES_INCLUDE", "", "INVENTORY_ADMIN_TOKEN", "refusal-test-token-0001"));

        assertThat(exit.code()).isNotZero();
        assertThat(exit.log()).contains("Refusing to start with the devstack's credentials")
                .contains("spring.datasource.password (set by INVENTORY_DB_PASSWORD) is 'devstack'")
                .contains("inventory.reconciliation.seata-console.password (set by SEATA_CONSOLE_PASSWORD) is 'seata'")
                .contains("SPRING_PROFILES_ACTIVE=devstack");
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).as("fails fast, before the context starts")
                .isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void refusesToStartWhenTheConfiguredNacosCannotBeReachedAndSaysWhatToDo() throws Exception {
        SharedStack.ensure(Component.defaults());
        String nowhere = "127.0.0.1:" + NacosFixture.freePort();
        long begin = System.nanoTime();

        Exit exit = run(Map.of("NACOS_SERVER_ADDR", nowhere, "INVENTORY_ADMIN_TOKEN", "refusal-test-token-0001"));

        assertThat(exit.code()).isNotZero();
        assertThat(exit.log()).contains("Nacos is configured (" + nowhere + ") but cannot be reached")
                .contains("unset both to run on the configuration files packaged in the jar");
        assertThat(Duration.ofNanos(System.nanoTime() - begin)).as("fails fast, before the context starts")
                .isLessThan(Duration.ofSeconds(60));
    }
}
