/**
 * Starts, checks and stops the project's real local stack (Redis, Redis Cluster, MariaDB, the Seata TC and
 * RocketMQ) on 127.0.0.1, each server in its own process with its own data directory and port.
 */
package io.github.flashstock.devstack;
