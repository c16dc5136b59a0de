package io.github.flashstock.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

class ConfigSourceSwitchTest {

    private final ConfigSourceSwitch configSwitch = new ConfigSourceSwitch();

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
        MockEnvironment environment = new MockEnvironment().withProperty("NACOS_SERVER_ADDR", "127.0.0.1:8848");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.cloud.nacos.config.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.enabled", Boolean.class)).isTrue();
        assertThat(environment.getProperty("spring.cloud.nacos.server-addr")).isEqualTo("127.0.0.1:8848");
        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("nacos:");
    }

    @Test
    void switchesNacosOnWhenTheSpringPropertyNamesAServer() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("spring.cloud.nacos.server-addr", "nacos.internal:8848");

        configSwitch.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(ConfigSourceSwitch.SOURCE)).isEqualTo("nacos:");
        assertThat(environment.getProperty("spring.cloud.nacos.discovery.ip")).isEqualTo("127.0.0.1");
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
