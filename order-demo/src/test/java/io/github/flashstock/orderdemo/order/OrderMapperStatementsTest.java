package io.github.flashstock.orderdemo.order;

import static org.assertj.core.api.Assertions.assertThat;

import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.metadata.TableInfo;
import com.baomidou.mybatisplus.core.metadata.TableInfoHelper;
import com.baomidou.mybatisplus.core.toolkit.StringUtils;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link OrderMapper} as MyBatis-Plus builds it, without a database: the order branch's statements and the lines stay
 * annotated SQL beside the {@code BaseMapper} statements, and {@link OrderRow}'s columns are selected in the order of
 * its components (MyBatis builds the record through its constructor, column by column).
 */
class OrderMapperStatementsTest {

    @Test
    void theRowIsSelectedInTheOrderOfItsComponentsAndTheHandWrittenStatementsStay() {
        MybatisConfiguration configuration = new MybatisConfiguration();
        configuration.setMapUnderscoreToCamelCase(true);
        configuration.addMapper(OrderMapper.class);

        TableInfo table = TableInfoHelper.getTableInfo(OrderRow.class);
        List<String> components = Arrays.stream(OrderRow.class.getRecordComponents())
                .map(c -> StringUtils.camelToUnderline(c.getName())).toList();
        assertThat(table.getTableName()).isEqualTo("orders");
        assertThat(table.getAllSqlSelect().split(",")).containsExactlyElementsOf(components);
        assertThat(table.getKeyColumn()).isEqualTo("order_id");

        for (String statement : List.of("insertPendingAll", "insertLines", "confirmAll", "lockForCancel",
                "cancelOwn", "fence", "fenced", "phaseRows", "insertLine", "lines", "status", "insert", "selectById",
                "selectList")) {
            assertThat(configuration.hasStatement(OrderMapper.class.getName() + "." + statement))
                    .as(statement).isTrue();
        }
        assertThat(configuration.getMappedStatement(OrderMapper.class.getName() + ".lockForCancel").getBoundSql(null)
                .getSql()).endsWith("FOR UPDATE");
    }
}
