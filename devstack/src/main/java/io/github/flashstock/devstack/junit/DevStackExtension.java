package io.github.flashstock.devstack.junit;

import io.github.flashstock.devstack.Component;
import io.github.flashstock.devstack.Endpoints;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Brings up what a {@link DevStackTest} class needs before its first test; resolves {@link Endpoints}. */
public final class DevStackExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        Set<Component> components = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), DevStackTest.class)
                .map(a -> Arrays.asList(a.value()))
                .map(list -> list.isEmpty() ? EnumSet.noneOf(Component.class) : EnumSet.copyOf(list))
                .orElse(EnumSet.copyOf(Component.defaults()));
        SharedStack.ensure(components);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        return parameter.getParameter().getType() == Endpoints.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        return SharedStack.endpoints();
    }
}
