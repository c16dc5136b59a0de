package io.github.flashstock.orderdemo.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FaultTest {

    @Test
    void readsEveryKnownFault() {
        assertThat(Fault.parse("fail-after-reserve").kind()).isEqualTo(Fault.Kind.FAIL_AFTER_RESERVE);
        assertThat(Fault.parse(" lose-first-reserve-response ").kind())
                .isEqualTo(Fault.Kind.LOSE_FIRST_RESERVE_RESPONSE);
        assertThat(Fault.parse("delay-after-reserve=PT8S"))
                .isEqualTo(new Fault(Fault.Kind.DELAY_AFTER_RESERVE, Duration.ofSeconds(8)));
        assertThat(Fault.parse(null)).isEqualTo(Fault.NONE);
        assertThat(Fault.parse("")).isEqualTo(Fault.NONE);
    }

    @Test
    void refusesWhatItDoesNotKnow() {
        assertThatThrownBy(() -> Fault.parse("explode")).isInstanceOf(Fault.Invalid.class);
        assertThatThrownBy(() -> Fault.parse("delay-after-reserve")).isInstanceOf(Fault.Invalid.class);
        assertThatThrownBy(() -> Fault.parse("delay-after-reserve=soon")).isInstanceOf(Fault.Invalid.class);
    }

    @Test
    void injectsNothingWhenTheSwitchIsOff() {
        assertThat(new Faults(false).requested("fail-after-reserve")).isEqualTo(Fault.NONE);
        assertThat(new Faults(false).requested("explode")).isEqualTo(Fault.NONE);
        assertThat(new Faults(true).requested("fail-after-reserve").kind()).isEqualTo(Fault.Kind.FAIL_AFTER_RESERVE);
    }
}
