package io.github.flashstock.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.metadata.TableInfo;
import com.baomidou.mybatisplus.core.metadata.TableInfoHelper;
import com.baomidou.mybatisplus.core.toolkit.StringUtils;
import io.github.flashstock.inventory.allotment.HandoverRow;
import io.github.flashstock.inventory.allotment.StockHandoverMapper;
import io.github.flashstock.inventory.stock.SkuStockMapper;
import io.github.flashstock.inventory.stock.SkuStockRow;
import io.github.flashstock.inventory.stock.StockLedgerMapper;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mappers as MyBatis-Plus builds them, without a database: the annotated statements and the {@code BaseMapper}
 * ones side by side, and each record entity's columns selected in the order of its components (MyBatis builds a
 * record through its constructor, column by column).
 */
class MapperStatementsTest {

    private static final MybatisConfiguration configuration = new MybatisConfiguration();

    @BeforeAll
    static void mappers() {
        configuration.setMapUnderscoreToCamelCase(true);
        configuration.addMapper(SkuStockMapper.class);
        configuration.addMapper(StockHandoverMapper.class);
        configuration.addMapper(StockLedgerMapper.class);
    }

    @ParameterizedTest
    @ValueSource(classes = {SkuStockRow.class, HandoverRow.class})
    void aRecordEntitySelectsItsColumnsInTheOrderOfItsComponents(Class<? extends Record> entity) {
        TableInfo table = TableInfoHelper.getTableInfo(entity);
        List<String> components = Arrays.stream(entity.getRecordComponents())
                .map(c -> StringUtils.camelToUnderline(c.getName())).toList();

        assertThat(table.getAllSqlSelect().split(",")).containsExactlyElementsOf(components);
        assertThat(table.getKeyColumn()).isEqualTo(components.get(0));
    }

    @Test
    void theHandWrittenStatementsStayBesideTheBaseMapperOnes() {
        for (String statement : List.of("sell", "releaseReserved", "restock", "recordRestock", "create",
                "takeFromReserve", "selectById", "selectList")) {
            assertThat(configuration.hasStatement(SkuStockMapper.class.getName() + "." + statement))
                    .as(statement).isTrue();
        }
        for (String statement : List.of("begin", "finish", "expect", "receive", "release", "pendingOf",
                "selectById", "selectList")) {
            assertThat(configuration.hasStatement(StockHandoverMapper.class.getName() + "." + statement))
                    .as(statement).isTrue();
        }
        assertThat(configuration.getMappedStatement(SkuStockMapper.class.getName() + ".sell").getBoundSql(null)
                .getSql()).contains("sold = sold + ?", "stocked - sold - reserved - allotment_available");
    }

    /** The ledger has no entity: its {@code insert} is the INSERT IGNORE fence, never BaseMapper's. */
    @Test
    void theLedgerIsHandWrittenOnly() {
        assertThat(configuration.getMappedStatement(StockLedgerMapper.class.getName() + ".insert")
                .getBoundSql(null).getSql()).startsWith("INSERT IGNORE INTO stock_ledger");
        assertThat(configuration.hasStatement(StockLedgerMapper.class.getName() + ".selectById")).isFalse();
    }
}
