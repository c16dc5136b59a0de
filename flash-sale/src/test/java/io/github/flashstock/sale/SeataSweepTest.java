package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link SeataSweep} reads {@code sql/seata-sweep.sql}: its statements, in order, without the comments. */
class SeataSweepTest {

    @Test
    void theFileIsTheCutoffThenTheListingThenTheTwoDeletesEachOnTheSameRows() throws Exception {
        Path root = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();
        List<String> statements = SeataSweep.statements(Files.readString(root.resolve("sql/seata-sweep.sql")));

        assertThat(statements).hasSize(5);
        assertThat(statements.get(0)).startsWith("SET @min_age_seconds = COALESCE(@min_age_seconds, 300)");
        assertThat(statements.get(1)).isEqualTo("SET @cutoff = NOW() - INTERVAL @min_age_seconds SECOND");
        assertThat(statements.get(2)).startsWith("SELECT g.xid, g.status");
        assertThat(statements.get(3)).startsWith("DELETE FROM lock_table");
        assertThat(statements.get(4)).startsWith("DELETE FROM global_table");
        assertThat(statements.subList(2, 5)).allSatisfy(sql -> assertThat(sql)
                .contains("status IN (11, 13, 15)", "NOT EXISTS (SELECT 1 FROM branch_table b", "< @cutoff")
                .doesNotContain("--").doesNotEndWith(";"));
    }

    @Test
    void aStatementWithoutItsSemicolonIsAnError() {
        assertThat(SeataSweep.statements("-- a note\nSELECT 1;\n\nSELECT\n  2;\n")).containsExactly("SELECT 1",
                "SELECT\n  2");
        assertThatThrownBy(() -> SeataSweep.statements("SELECT 1;\nDELETE FROM t\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DELETE FROM t");
    }
}
