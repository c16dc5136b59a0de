package io.github.flashstock.inventory.segments;

import io.github.flashstock.inventory.SkuSettingsDataId;
import com.alibaba.cloud.nacos.NacosConfigManager;
import com.alibaba.cloud.nacos.client.NacosPropertySource;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import com.alibaba.nacos.api.exception.NacosException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.stereotype.Component;

/**
 * In Nacos mode, hands the segment counts to {@link LiveSegments} the moment Nacos pushes a change of one of the
 * service's dataIds (its own, and the per-SKU settings', {@link SkuSettingsDataId}, confined to its two maps as
 * always). Spring Cloud applies the same push too, by rebuilding the whole environment; under a sale's load on a
 * small machine that took 1.6-2.7 s here, and a hot SKU's segments should not wait for it. The counts are read from
 * the environment as it will be once the push is in: the same property sources in the same order, the dataId's
 * replaced by the pushed document, placeholders resolved, with the same validation. So settings from outside the
 * dataId (environment variables, arguments, the packaged copy underneath) keep their say, and the refresh that
 * follows finds the counts already in force.
 * <p>
 * Nacos calls a dataId's listeners one after the other on one thread, and Spring Cloud's listener runs the whole
 * refresh on it; so this one registers before Spring Cloud's (once the beans exist, before the application is ready)
 * and does its work on a thread of its own.
 */
@Component
@ConditionalOnProperty(name = "spring.cloud.nacos.config.enabled", havingValue = "true")
class NacosSegmentsListener implements SmartInitializingSingleton, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(NacosSegmentsListener.class);

    private final ObjectProvider<NacosConfigManager> nacos;
    private final LiveSegments segments;
    private final ConfigurableEnvironment environment;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "nacos-segments");
        t.setDaemon(true);
        return t;
    });

    NacosSegmentsListener(ObjectProvider<NacosConfigManager> nacos, LiveSegments segments,
                          ConfigurableEnvironment environment) {
        this.nacos = nacos;
        this.segments = segments;
        this.environment = environment;
    }

    @Override
    public void afterSingletonsInstantiated() {
        try {
            listen();
        } catch (NacosException e) {
            log.warn("Segment counts will follow Spring's refresh only: cannot listen to Nacos: {}", e.getMessage());
        }
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }

    void listen() throws NacosException {
        NacosConfigManager manager = nacos.getIfAvailable();
        if (manager == null) {
            return;
        }
        String group = environment.getProperty("spring.cloud.nacos.config.group", "DEFAULT_GROUP");
        listen(manager, group, environment.getRequiredProperty("spring.application.name") + ".yaml");
        listen(manager, group, SkuSettingsDataId.of(environment));
    }

    private void listen(NacosConfigManager manager, String group, String dataId) throws NacosException {
        manager.getConfigService().addListener(dataId, group, new AbstractListener() {
            @Override
            public Executor getExecutor() {
                return worker;
            }

            @Override
            public void receiveConfigInfo(String content) {
                try {
                    Optional<Binder> pushed = withPushed(environment, group, dataId, content);
                    if (pushed.isPresent()) {
                        segments.pushed(pushed.get());
                    } else {
                        log.warn("No property source of {} among {}: left to Spring's refresh", dataId,
                                environment.getPropertySources().stream()
                                        .map(p -> p.getName() + " (" + p.getClass().getSimpleName() + ")").toList());
                    }
                } catch (RuntimeException | IOException e) {
                    log.warn("Could not read segment counts from the pushed {} (Spring's refresh applies them): {}",
                            dataId, e.getMessage());
                }
            }
        });
    }

    /**
     * The environment's properties with the dataId's source replaced by the pushed document; empty when the
     * environment holds no source of that dataId (nothing to replace: the refresh decides). The imported dataId is
     * the property source named {@code <group>@<dataId>}.
     */
    static Optional<Binder> withPushed(ConfigurableEnvironment environment, String group, String dataId, String yaml)
            throws IOException {
        MutablePropertySources sources = new MutablePropertySources();
        boolean replaced = false;
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
                continue; // a view over all the others, the old dataId included
            }
            boolean theDataId = source.getName().equals(group + "@" + dataId)
                    || source instanceof NacosPropertySource nacosSource && dataId.equals(nacosSource.getDataId())
                    && group.equals(nacosSource.getGroup());
            if (theDataId) {
                for (PropertySource<?> pushed : parse(dataId + " (pushed)", yaml)) {
                    sources.addLast(dataId.endsWith(SkuSettingsDataId.SUFFIX)
                            ? SkuSettingsDataId.confined(pushed) : pushed);
                }
                replaced = true;
            } else {
                sources.addLast(source);
            }
        }
        if (!replaced) {
            return Optional.empty();
        }
        return Optional.of(new Binder(ConfigurationPropertySources.from(sources),
                new PropertySourcesPlaceholdersResolver(sources)));
    }

    static List<PropertySource<?>> parse(String name, String yaml) throws IOException {
        return new YamlPropertySourceLoader().load(name,
                new ByteArrayResource(yaml == null ? new byte[0] : yaml.getBytes(StandardCharsets.UTF_8)));
    }
}
