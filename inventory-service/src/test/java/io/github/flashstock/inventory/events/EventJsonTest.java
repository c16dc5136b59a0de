package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flashstock.inventory.reconciliation.Finding;
import io.github.flashstock.inventory.reconciliation.ReconciliationReport;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.json.JsonMapper;

class EventJsonTest {

    private final MessageConverter converter =
            new EventJson().rocketMQMessageConverter(JsonMapper.builder().build()).getMessageConverter();

    @Test
    void aStockEventTravelsAsAJsonObjectAndComesBackEqual() {
        StockEventMessage event = new StockEventMessage("CONFIRMED", "xid-1", "order-1", 42L, "sku-1", 3, null,
                "REDIS", 1_764_500_000_000L);

        Message<?> message = converter.toMessage(event, null);
        String body = new String((byte[]) message.getPayload(), StandardCharsets.UTF_8);

        assertThat(body).startsWith("{").contains("\"phase\":\"CONFIRMED\"", "\"quantity\":3",
                "\"at\":1764500000000");
        assertThat(converter.fromMessage(MessageBuilder.withPayload(body.getBytes(StandardCharsets.UTF_8)).build(),
                StockEventMessage.class)).isEqualTo(event);
    }

    @Test
    void aReportWritesItsInstantsAsIsoText() {
        ReconciliationReport report = new ReconciliationReport("run-1", Instant.parse("2026-11-30T15:00:00Z"),
                Instant.parse("2026-11-30T15:00:01Z"), 1,
                List.of(new Finding(Finding.Kind.REDIS_MYSQL_DRIFT, "sku-1", Map.of("soldDifference", 1))));

        String body = new String((byte[]) converter.toMessage(report, null).getPayload(), StandardCharsets.UTF_8);

        assertThat(body).contains("\"2026-11-30T15:00:00Z\"", "\"REDIS_MYSQL_DRIFT\"", "\"soldDifference\":1");
    }

    @Test
    void textAndBytesPassAsTheyAre() {
        assertThat(new String((byte[]) converter.toMessage("plain", null).getPayload(), StandardCharsets.UTF_8))
                .isEqualTo("plain");
        byte[] bytes = {1, 2, 3};
        assertThat(converter.toMessage(bytes, null).getPayload()).isEqualTo(bytes);
    }

    @Test
    void aBodyThatIsNotJsonIsAConversionError() {
        Message<byte[]> garbage = MessageBuilder.withPayload("not json".getBytes(StandardCharsets.UTF_8)).build();

        assertThatThrownBy(() -> converter.fromMessage(garbage, StockEventMessage.class))
                .isInstanceOf(MessageConversionException.class);
    }
}
