/** Extensions of Seata's client that both services use. */
package io.github.flashstock.support.seata;
