package io.github.flashstock.devstack.junit;

import io.github.flashstock.devstack.Component;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against the devstack's real servers. Test methods and constructors may take an
 * {@link io.github.flashstock.devstack.Endpoints} parameter; Spring tests read {@link SharedStack#endpoints()} in
 * a {@code @DynamicPropertySource} method.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(DevStackExtension.class)
public @interface DevStackTest {

    /** The servers the class needs; the Redis Cluster only runs when a class asks for it. */
    Component[] value() default {Component.REDIS, Component.MARIADB, Component.SEATA, Component.ROCKETMQ};
}
