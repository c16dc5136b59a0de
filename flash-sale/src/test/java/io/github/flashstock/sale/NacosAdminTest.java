package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The segment change the demo and NacosModeIT publish touches the segments' map of the shipped file only. */
class NacosAdminTest {

    private static String shipped() throws IOException {
        Path root = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
        return Files.readString(root.resolve("nacos-config/inventory-service.yaml"));
    }

    @Test
    void aSegmentCountGoesToTheSegmentsMapAndTheReservesStayAsShipped() throws IOException {
        String shipped = shipped();
        String changed = NacosAdmin.withSegmentCount(shipped, "hot-1", 4);

        assertThat(changed).contains("  segments:\n").contains("\n    skus: {hot-1: 4}\n");
        // the allotments' per-SKU map (indented by six, under mysql-store.allotment) is still empty
        assertThat(changed).contains("\n      skus: {}\n");
        assertThat(changed.split("hot-1", -1)).hasSize(2);
        assertThat(changed.length() - shipped.length()).isEqualTo("hot-1: 4".length());
    }

    @Test
    void aFileWithoutAnEmptySegmentsMapIsRefused() {
        assertThatThrownBy(() -> NacosAdmin.withSegmentCount("inventory:\n  segments:\n    default: 1\n", "a", 2))
                .isInstanceOf(IllegalStateException.class);
    }
}
