package dev.sqslite.junit;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** The extension behind {@link Sqslite}: starts, shares, resets and injects the server. */
public final class SqsliteExtension implements BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SqsliteExtension.class);
    // By name, so that a project without SDK v2 can still use the extension.
    private static final String SQS_CLIENT = "software.amazon.awssdk.services.sqs.SqsClient";

    @Override
    public void beforeEach(ExtensionContext context) {
        server(context).reset();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == SqsliteServer.class || type == URI.class || type.getName().equals(SQS_CLIENT);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        SqsliteServer server = server(context);
        if (type == SqsliteServer.class) {
            return server;
        }
        if (type == URI.class) {
            return server.endpoint();
        }
        return server.sqsClient();
    }

    /** The run's server for the test class's options, started on first use (root store). */
    private static SqsliteServer server(ExtensionContext context) {
        Sqslite options = options(context.getRequiredTestClass());
        List<Object> key = List.of(options.config(), options.clock(), options.strict(),
                options.delivery(), options.deliverySeed());
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        return store.getOrComputeIfAbsent(key, k -> new Resource(SqsliteServer.start(
                        options.config(), options.clock(), options.strict(), options.delivery(),
                        options.deliverySeed())), Resource.class)
                .server;
    }

    /** The class's @Sqslite, or that of the class it is nested in (@Nested tests). */
    private static Sqslite options(Class<?> testClass) {
        for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
            var found = AnnotationSupport.findAnnotation(c, Sqslite.class);
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new ParameterResolutionException(testClass.getName() + " has no @Sqslite");
    }

    /** Stops the server when the run's root context closes (JUnit 5 and 6 alike). */
    @SuppressWarnings("deprecation")
    private record Resource(SqsliteServer server)
            implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }
}
