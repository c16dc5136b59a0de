package io.github.flashstock.inventory.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** One value set in the service's dataId, everything else (the comments included) as it was. */
class DataIdEditTest {

    private static final Path DATA_ID = Path.of("..", "nacos-config", "inventory-service.yaml");

    @Test
    void setsASegmentCountAndLeavesEveryOtherLineAsItWas() throws IOException {
        String original = Files.readString(DATA_ID);

        String edited = DataIdEdit.set(original, DataIdEdit.SEGMENTS, "hot-1", "4");

        assertThat(at(edited, "inventory", "segments", "skus")).isEqualTo(Map.of("[hot-1]", 4));
        assertThat(at(edited, "inventory", "mysql-store", "allotment", "skus"))
                .as("the allotments' map, also empty, untouched").isEqualTo(Map.of());
        List<String> removed = lines(original);
        removed.removeAll(lines(edited));
        assertThat(removed).as("lines of the original gone").containsExactly("    skus: {}");
        List<String> added = lines(edited);
        added.removeAll(lines(original));
        assertThat(added).containsExactly("    skus:", "      \"[hot-1]\": 4");
        assertThat(withoutPath(edited)).isEqualTo(withoutPath(original));
    }

    @Test
    void setsAnAllotmentShareQuotedAndReplacesAnEarlierValue() throws IOException {
        String original = Files.readString(DATA_ID);

        String edited = DataIdEdit.set(DataIdEdit.set(original, DataIdEdit.ALLOTMENTS, "hot-1", "20%"),
                DataIdEdit.ALLOTMENTS, "hot-1", "50");
        edited = DataIdEdit.set(edited, DataIdEdit.ALLOTMENTS, "side_2", "10%");

        assertThat(at(edited, "inventory", "mysql-store", "allotment", "skus"))
                .isEqualTo(Map.of("[hot-1]", 50, "[side_2]", "10%"));
        assertThat(edited).contains("\"[side_2]\": \"10%\"");
        assertThat(at(edited, "inventory", "segments", "skus")).isEqualTo(Map.of());
    }

    @Test
    void addsTheMappingsOnThePathWhereTheDocumentHasNone() {
        String edited = DataIdEdit.set("# tuned in Nacos\nspring:\n  application:\n    name: x\n", DataIdEdit.SEGMENTS,
                "a", "2");

        assertThat(at(edited, "inventory", "segments", "skus")).isEqualTo(Map.of("[a]", 2));
        assertThat(edited).startsWith("# tuned in Nacos").contains("name: x");
        assertThat(at(DataIdEdit.set("", DataIdEdit.SEGMENTS, "a", "3"), "inventory", "segments", "skus"))
                .isEqualTo(Map.of("[a]", 3));
    }

    @Test
    void replacesAnEntryTheOperatorWroteWithoutBracketsSoTheIdHasOneValue() {
        String operators = "inventory:\n  segments:\n    skus:\n      hot_1: 2\n      \"[hot_1]\": 3\n      other: 5\n";

        String edited = DataIdEdit.set(operators, DataIdEdit.SEGMENTS, "hot_1", "4");

        assertThat(at(edited, "inventory", "segments", "skus")).isEqualTo(Map.of("[hot_1]", 4, "other", 5));
    }

    @Test
    void refusesADocumentWhosePathIsNotAMapping() {
        assertThatThrownBy(() -> DataIdEdit.set("inventory:\n  segments: 4\n", DataIdEdit.SEGMENTS, "a", "2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("segments");
        assertThatThrownBy(() -> DataIdEdit.set("- a\n- b\n", DataIdEdit.SEGMENTS, "a", "2"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @SuppressWarnings("unchecked")
    private static Object at(String yaml, String... path) {
        Object node = new Yaml().load(yaml);
        for (String step : path) {
            node = ((Map<String, Object>) node).get(step);
        }
        return node;
    }

    /** The document as data with both per-SKU maps emptied: what an edit must not change. */
    @SuppressWarnings("unchecked")
    private static Object withoutPath(String yaml) {
        Map<String, Object> root = new Yaml().load(yaml);
        Map<String, Object> inventory = (Map<String, Object>) root.get("inventory");
        ((Map<String, Object>) inventory.get("segments")).put("skus", Map.of());
        ((Map<String, Object>) ((Map<String, Object>) inventory.get("mysql-store")).get("allotment")).put("skus",
                Map.of());
        return root;
    }

    private static List<String> lines(String text) {
        return new java.util.ArrayList<>(text.lines().toList());
    }
}
