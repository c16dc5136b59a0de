package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LoopbackFirewallTest {

    @Test
    void aRuleAsIptablesPrintsItSplitsIntoTheWordsThatDeleteIt() {
        String printed = "INPUT -p tcp -m tcp --dport 18091 ! -d 127.0.0.0/8"
                + " -m comment --comment \"flashstock-devstack /work/main/.devstack\" -j DROP";

        assertThat(LoopbackFirewall.words(printed)).containsExactly("INPUT", "-p", "tcp", "-m", "tcp", "--dport",
                "18091", "!", "-d", "127.0.0.0/8", "-m", "comment", "--comment",
                "flashstock-devstack /work/main/.devstack", "-j", "DROP");
    }
}
