package io.github.flashstock.inventory.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.catalog.web.AdminController;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * A SKU's setting written by the console is read back by Spring's binding for exactly that SKU, whatever characters
 * its id holds: the binding the segment and allotment readers use, over the YAML the console publishes.
 */
class SkuSettingsBindingTest {

    /** Ids with every character a SKU id may hold, where binding without brackets would change them. */
    static final List<String> SPECIAL = List.of("-x", "x", "hot_1", "HOT-1", "Hot.1", ".hidden", "a..b", "_", "-",
            "9", "a-", "a_b.c-D", "x.", "A", "a");

    private static Map<String, String> bound(String yaml, String path) throws IOException {
        MutablePropertySources sources = new MutablePropertySources();
        for (PropertySource<?> source : new YamlPropertySourceLoader().load("published",
                new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)))) {
            sources.addLast(source);
        }
        return new Binder(ConfigurationPropertySources.from(sources))
                .bind(path, Bindable.mapOf(String.class, String.class)).orElse(Map.of());
    }

    @Test
    void everySpecialIdLandsOnThatSkuAndNoOther() throws IOException {
        String yaml = "";
        for (int i = 0; i < SPECIAL.size(); i++) {
            assertThat(SPECIAL.get(i)).matches(AdminController.SKU_ID);
            yaml = DataIdEdit.set(yaml, DataIdEdit.SEGMENTS, SPECIAL.get(i), Integer.toString(i + 1));
            yaml = DataIdEdit.set(yaml, DataIdEdit.ALLOTMENTS, SPECIAL.get(i), (i + 1) + "%");
        }

        Map<String, String> segments = bound(yaml, "inventory.segments.skus");
        Map<String, String> allotments = bound(yaml, "inventory.mysql-store.allotment.skus");

        assertThat(segments).hasSize(SPECIAL.size());
        assertThat(allotments).hasSize(SPECIAL.size());
        for (int i = 0; i < SPECIAL.size(); i++) {
            assertThat(segments).containsEntry(SPECIAL.get(i), Integer.toString(i + 1));
            assertThat(allotments).containsEntry(SPECIAL.get(i), (i + 1) + "%");
        }
    }

    /** 500 random ids of 1 to 64 characters drawn mostly from the special ones (fixed seed: the same ids each run). */
    @Test
    void anyAllowedIdRoundTripsExactly() throws IOException {
        Random random = new Random(51);
        String alphabet = "-_.-_.-_.aZ09";
        for (int n = 0; n < 500; n++) {
            StringBuilder id = new StringBuilder();
            for (int i = 1 + random.nextInt(random.nextBoolean() ? 4 : 64); i > 0; i--) {
                id.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String skuId = id.toString();
            assertThat(skuId).matches(AdminController.SKU_ID);

            String yaml = DataIdEdit.set("", DataIdEdit.SEGMENTS, skuId, "7");

            assertThat(bound(yaml, "inventory.segments.skus")).as(skuId).isEqualTo(Map.of(skuId, "7"));
        }
    }
}
