package io.github.flashstock.inventory.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.github.flashstock.inventory.stock.StockLedgerMapper;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.flashstock.inventory.stock.TriedEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import tools.jackson.databind.json.JsonMapper;

/** One delivery of the ledger consumer: read, written with one statement, the unreadable messages returned alone. */
class LedgerConsumerTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StockLedgerMapper ledger = mock(StockLedgerMapper.class);
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final List<String> returned = new ArrayList<>();
    private final List<String> brokers = new ArrayList<>();
    private LedgerConsumer.Redelivery redelivery = (message, delayLevel, broker) -> {
        returned.add(message.getMsgId());
        brokers.add(broker);
    };

    private ConsumeConcurrentlyStatus deliver(MessageExt... messages) {
        LedgerConsumer.Batches batches = new LedgerConsumer.Batches(new LedgerFold(ledger, meters, RetryRegistry.ofDefaults()),
                new EventJson().rocketMQMessageConverter(JSON).getMessageConverter(), meters,
                (message, delayLevel, broker) -> redelivery.later(message, delayLevel, broker));
        return batches.consumeMessage(List.of(messages),
                new ConsumeConcurrentlyContext(new MessageQueue("stock-events", "broker-a", 0)));
    }

    private static MessageExt message(String id, byte[] body) {
        MessageExt m = new MessageExt();
        m.setMsgId(id);
        m.setBody(body);
        return m;
    }

    private static MessageExt tried(String id, String reservation, long units) {
        return message(id, JSON.writeValueAsBytes(new StockEventMessage("TRIED", "x-1", reservation, 7, "sku-a", units,
                "u-1", "REDIS", 1)));
    }

    @SuppressWarnings("unchecked")
    private List<TriedEvent> written() {
        ArgumentCaptor<List<TriedEvent>> rows = ArgumentCaptor.forClass(List.class);
        verify(ledger).insertTriedEvents(rows.capture());
        return rows.getValue();
    }

    @Test
    void aDeliveryIsWrittenWithOneStatement() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(3);

        assertThat(deliver(tried("m-1", "o-1", 1), tried("m-2", "o-2", 2), tried("m-3", "o-3", 3)))
                .isEqualTo(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);

        assertThat(written()).extracting(TriedEvent::reservationId).containsExactly("o-1", "o-2", "o-3");
        assertThat(returned).isEmpty();
    }

    @Test
    void anUnreadableMessageIsReturnedAloneAndHoldsUpNoOther() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(2);

        ConsumeConcurrentlyStatus status = deliver(tried("m-1", "o-1", 1),
                message("m-2", "not a stock event".getBytes(StandardCharsets.UTF_8)), tried("m-3", "o-3", 3),
                tried("m-4", "o-4", 0), message("m-5", "{}".getBytes(StandardCharsets.UTF_8)));

        assertThat(status).isEqualTo(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        assertThat(written()).extracting(TriedEvent::reservationId).containsExactly("o-1", "o-3");
        // not JSON; a Try of 0 units, which the ledger refuses; an object without a phase
        assertThat(returned).containsExactly("m-2", "m-4", "m-5");
        assertThat(brokers).containsOnly("broker-a");
        assertThat(meters.counter("inventory.ledger.unreadable").count()).isEqualTo(3);
    }

    @Test
    void aDeliveryOfUnreadableMessagesOnlyCostsNoStatement() {
        assertThat(deliver(message("m-1", new byte[] {1, 2, 3}))).isEqualTo(ConsumeConcurrentlyStatus.CONSUME_SUCCESS);

        verify(ledger, never()).insertTriedEvents(anyList());
        assertThat(returned).containsExactly("m-1");
    }

    @Test
    void aFailedStatementReturnsTheWholeDelivery() {
        when(ledger.insertTriedEvents(anyList())).thenThrow(new IllegalStateException("database away"));

        assertThat(deliver(tried("m-1", "o-1", 1), message("m-2", "garbage".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);

        // the broker delivers every message again, the unreadable one too: returning it here as well would send it twice
        assertThat(returned).isEmpty();
    }

    @Test
    void anUnreadableMessageThatCannotBeReturnedAloneReturnsTheWholeDelivery() {
        when(ledger.insertTriedEvents(anyList())).thenReturn(1);
        redelivery = (message, delayLevel, broker) -> {
            throw new IllegalStateException("broker away");
        };

        assertThat(deliver(tried("m-1", "o-1", 1), message("m-2", "garbage".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(ConsumeConcurrentlyStatus.RECONSUME_LATER);
        assertThat(meters.counter("inventory.ledger.unreadable").count()).isZero();
    }
}
