package dev.sqslite.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against sqslite: one server per distinct set of options for the whole
 * test run, reset to its started state before each test. Test methods and constructors may take
 * a {@link SqsliteServer}, its endpoint as a {@link java.net.URI}, or an SDK v2 {@code SqsClient}.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(SqsliteExtension.class)
public @interface Sqslite {
    /** A sqslite.toml or elasticmq.conf, relative to the working directory; none by default. */
    String config() default "";

    /** {@code "manual"} freezes time until {@link SqsliteServer#advanceClock}; default: the binary's. */
    String clock() default "";

    /** SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress). */
    boolean strict() default false;

    /**
     * How standard queues deliver: {@code "at-least-once"} rehearses duplicates, as AWS delivers;
     * default: the binary's ({@code "exact"}).
     */
    String delivery() default "";

    /** The seed of at-least-once delivery (the same seed, the same run); negative: the binary's. */
    long deliverySeed() default -1;
}
