package io.github.flashstock.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.mock.env.MockEnvironment;

class DevstackCredentialsTest {

    private final DevstackCredentials check = new DevstackCredentials();

    /** A service's list as its application.yml writes it, with the values given. */
    private static MockEnvironment service(Map<String, String> values) throws IOException {
        MockEnvironment environment = new MockEnvironment();
        String yaml = """
                flashstock:
                  credentials:
                    spring.datasource.password: INVENTORY_DB_PASSWORD
                    inventory.reconciliation.seata-console.password: SEATA_CONSOLE_PASSWORD
                    spring.cloud.nacos.password: NACOS_PASSWORD
                """;
        new YamlPropertySourceLoader().load("application.yml",
                        new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)))
                .forEach(environment.getPropertySources()::addLast);
        values.forEach(environment::setProperty);
        return environment;
    }

    @Test
    void refusesTheDevstacksDatabasePasswordNamingTheSettingAndItsVariable() throws IOException {
        MockEnvironment environment = service(Map.of("spring.datasource.password", "devstack"));

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .isInstanceOf(DevstackCredentialInForce.class)
                .hasMessageStartingWith("Refusing to start with the devstack's credentials")
                .hasMessageContaining("spring.datasource.password (set by INVENTORY_DB_PASSWORD) is 'devstack'")
                .hasMessageContaining("SPRING_PROFILES_ACTIVE=devstack");
    }

    @Test
    void namesEveryDevstackCredentialInForce() throws IOException {
        MockEnvironment environment = service(Map.of("spring.datasource.password", "devstack",
                "inventory.reconciliation.seata-console.password", "seata",
                "spring.cloud.nacos.password", " devstack-nacos"));

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("inventory.reconciliation.seata-console.password (set by SEATA_CONSOLE_PASSWORD)"
                        + " is 'seata'")
                .hasMessageContaining("spring.cloud.nacos.password (set by NACOS_PASSWORD) is 'devstack-nacos'")
                .hasMessageContaining("spring.datasource.password (set by INVENTORY_DB_PASSWORD) is 'devstack'");
    }

    @Test
    void acceptsThemWithProfileDevstack() throws IOException {
        MockEnvironment environment = service(Map.of("spring.datasource.password", "devstack",
                "inventory.reconciliation.seata-console.password", "seata"));
        environment.setActiveProfiles("faults", "devstack");
        environment.setProperty("server.address", "127.0.0.1");

        assertThatCode(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesProfileDevstackUnlessEveryPortIsOnLoopback() throws IOException {
        for (String address : new String[] {null, "0.0.0.0", "10.1.2.3", "::"}) {
            MockEnvironment environment = service(Map.of());
            environment.setActiveProfiles("devstack");
            if (address != null) {
                environment.setProperty("server.address", address);
            }
            assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                    .as("server.address %s", address)
                    .hasMessageContaining("profile devstack")
                    .hasMessageContaining("runs only with every port bound to loopback");
        }
        MockEnvironment management = service(Map.of("server.address", "127.0.0.1",
                "management.server.port", "9090", "management.server.address", "0.0.0.0"));
        management.setActiveProfiles("devstack");
        assertThatThrownBy(() -> check.postProcessEnvironment(management, new SpringApplication()))
                .hasMessageContaining("management.server.address is 0.0.0.0");
        MockEnvironment ipv6 = service(Map.of("server.address", "::1"));
        ipv6.setActiveProfiles("devstack");
        assertThatCode(() -> check.postProcessEnvironment(ipv6, new SpringApplication())).doesNotThrowAnyException();
    }

    @Test
    void refusesTheDevstacksSigningKeysOutsideItEvenAsOneOfTwo() throws IOException {
        MockEnvironment environment = service(Map.of());
        environment.setProperty("flashstock.credentials.inventory.callers.keys.order-demo",
                "INVENTORY_CALLER_KEY_ORDER_DEMO");
        environment.setProperty("inventory.callers.keys.order-demo",
                "a-real-key-of-order-demo-0123456789,devstack-order-demo-signing-key-not-a-secret");

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("inventory.callers.keys.order-demo (set by INVENTORY_CALLER_KEY_ORDER_DEMO) is"
                        + " 'devstack-order-demo-signing-key-not-a-secret'");
    }

    @Test
    void acceptsOtherSecretsAndSettingsThatAreNotSet() throws IOException {
        MockEnvironment environment = service(Map.of("spring.datasource.password", "a-real-secret",
                "inventory.reconciliation.seata-console.password", "devstack-but-longer"));

        assertThatCode(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .doesNotThrowAnyException();
    }

    @Configuration(proxyBeanMethods = false)
    static class NothingElse {
    }

    /**
     * How the harness runs the services (ServiceProcess): profile devstack included through the environment, while
     * the command line may choose another active profile (order-demo's faults).
     */
    @Test
    void profileIncludedByTheEnvironmentStaysBesideAnActiveProfileFromTheCommandLine() {
        ConfigurableEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("SPRING_PROFILES_INCLUDE", "devstack", "ORDERS_DB_PASSWORD", "devstack")));
        SpringApplication application = new SpringApplication(NothingElse.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setEnvironment(environment);

        try (ConfigurableApplicationContext context = application.run("--spring.profiles.active=faults",
                "--server.address=127.0.0.1",
                "--flashstock.credentials.spring.datasource.password=ORDERS_DB_PASSWORD",
                "--spring.datasource.password=${ORDERS_DB_PASSWORD}")) {
            assertThat(context.getEnvironment().getActiveProfiles()).contains("faults", "devstack");
        }
    }

    @Test
    void refusesTheSameStartWithoutTheProfile() {
        SpringApplication application = new SpringApplication(NothingElse.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run("--spring.profiles.active=faults",
                "--flashstock.credentials.spring.datasource.password=ORDERS_DB_PASSWORD",
                "--spring.datasource.password=devstack").close())
                .isInstanceOf(DevstackCredentialInForce.class)
                .hasMessageContaining("spring.datasource.password (set by ORDERS_DB_PASSWORD) is 'devstack'");
    }
}
