package io.github.flashstock.devstack.seata;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A minimal Seata client: one TCC action, one service that opens global transactions around it. */
@SpringBootApplication
class ProbeApplication {
}
