package io.github.flashstock.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

class ConfigSourceSwitchTest {

    private final ConfigSourceSwitch configSwitch = new ConfigSourceSwitch();
    /** Something that accepts connections where the tests say Nacos is. */
    private ServerSocket nacos;

    @BeforeEach
    void listen() throws IOException {
        nacos = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void close() throws IOException {
        nacos.close();
    }

    private String nacosAddress() {
        return "127.0.0.1:" + nacos.getLocalPort();
    }

    @Test
    void readsLocalFilesAndSwitchesNacosOffWithoutAnAddress() {
        MockEnvironment environment = new MockEnvironment();

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.config.enabled", Boolean.class)).isFalse();
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.enabled", Boolean.class)).isFalse();
        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("classpath:nacos-config/");
    }

    @Test
    void switchesNacosOnWhenTheEnvironmentVariableNamesAServer() {
        MockEnvironment environment = new MockEnvironment().withProperty("NACOS_SERVER_ADDR", nacosAddress());

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.config.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.nacos.server-addr")).isEqualTo(nacosAddress());
        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("nacos:");
    }

    @Test
    void switchesNacosOnWhenTheSpringPropertyNamesAServer() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.cloud.nacos.server-addr", "http://" + nacosAddress() + "/nacos");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("nacos:");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.ip")).isEqualTo("127.0.0.1");
    }

    @Test
    void registersTheAddressTheServiceIsBoundTo() {
        MockEnvironment environment = new MockEnvironment().withProperty("NACOS_SERVER_ADDR", nacosAddress())
                .withProperty("server.address", "10.1.2.3");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.discovery.ip")).isEqualTo("10.1.2.3");
    }

    @Test
    void turnsOffTheImportCheckThatCannotSeeThroughThePlaceholder() {
        MockEnvironment environment = new MockEnvironment().withProperty("NACOS_SERVER_ADDR", nacosAddress());

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.config.import-check.enabled", Boolean.class)).isFalse();
    }

    @Test
    void appliesNamespaceGroupAndCredentialsToConfigAndDiscoveryAlike() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("NACOS_SERVER_ADDR", nacosAddress())
                .withProperty("NACOS_NAMESPACE", "flash-prod")
                .withProperty("NACOS_GROUP", "FLASHSTOCK")
                .withProperty("NACOS_USERNAME", "ops")
                .withProperty("NACOS_PASSWORD", "s3cret")
                // an explicit property wins over the variable
                .withProperty("spring.cloud.nacos.discovery.group", "DISCOVERY");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.config.namespace")).isEqualTo("flash-prod");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.namespace")).isEqualTo("flash-prod");
        assertThat(environment.getProperty("spring.cloud.nacos.config.group")).isEqualTo("FLASHSTOCK");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.group")).isEqualTo("DISCOVERY");
        assertThat(environment.getProperty("spring.cloud.nacos.config.username")).isEqualTo("ops");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.password")).isEqualTo("s3cret");
    }

    @Test
    void refusesToStartWhenTheConfiguredNacosCannotBeReached() throws IOException {
        String gone = nacosAddress();
        nacos.close();
        MockEnvironment environment = new MockEnvironment().withProperty("NACOS_SERVER_ADDR", gone);

        assertThatThrownBy(() -> configSwitch.postProcessEnvironment(environment, new SpringApplication()))
                .isInstanceOf(NacosUnreachable.class)
                .hasMessageContaining(gone)
                .hasMessageContaining("unset both to run on the configuration files packaged in the jar");
    }

    @Test
    void startsWhenAnyOfSeveralServersCanBeReached() throws IOException {
        ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        int gonePort = closed.getLocalPort();
        closed.close();
        MockEnvironment environment = new MockEnvironment()
                .withProperty("NACOS_SERVER_ADDR", "127.0.0.1:" + gonePort + "," + nacosAddress());

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("nacos:");
    }

    @Test
    void leavesExplicitSettingsInForce() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty(ConfigSourceSwitch.SOURCE, "file:/etc/flashstock/")
                .withProperty("spring.cloud.nacos.discovery.enabled", "true");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("file:/etc/flashstock/");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.nacos.config.enabled", Boolean.class)).isFalse();
    }
}
