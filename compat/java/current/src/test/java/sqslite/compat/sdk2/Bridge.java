package sqslite.compat.sdk2;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One interface over an SDK v2 service's sync and async clients ({@link Sqs}, {@link Sns}): each
 * call goes to the client's method of the same name and parameters; an async client's future is
 * awaited and the service's own exception rethrown, not the CompletionException around it.
 */
final class Bridge {
    private Bridge() {}

    static <T> T of(Class<T> api, Object client, Class<?> type, boolean joins) {
        return api.cast(Proxy.newProxyInstance(api.getClassLoader(), new Class<?>[] {api},
                (self, method, args) -> {
                    Method target = type.getMethod(method.getName(), method.getParameterTypes());
                    try {
                        Object out = target.invoke(client, args);
                        return joins ? ((CompletableFuture<?>) out).join() : out;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    } catch (CompletionException e) {
                        throw e.getCause();
                    }
                }));
    }
}
