package sqslite.compat.spring;

import io.awspring.cloud.sqs.annotation.SqsListener;
import io.awspring.cloud.sqs.listener.Visibility;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

/**
 * The Spring Boot app under test: @SqsListener methods on queues SpringCloudAwsTest creates
 * first and names through `compat.queue.*` properties. Everything they see is recorded here.
 */
@SpringBootApplication
public class ListenerApp {
    @Component
    public static class Listeners {
        final BlockingQueue<String> acknowledged = new LinkedBlockingQueue<>();
        final AtomicInteger failures = new AtomicInteger();
        final List<String> slowReceiveCounts = new CopyOnWriteArrayList<>();
        final Map<String, List<String>> fifoByGroup = new ConcurrentHashMap<>();

        /** Returns normally, so the container deletes the message (ON_SUCCESS, the default). */
        @SqsListener("${compat.queue.ack}")
        void ack(String body) {
            acknowledged.add(body);
        }

        /** Always throws: the message comes back after its visibility and redrive sends it to the DLQ. */
        @SqsListener("${compat.queue.failing}")
        void failing(String body) {
            failures.incrementAndGet();
            throw new IllegalStateException("cannot handle " + body);
        }

        /** Takes longer than the queue's 1-second VisibilityTimeout, so it extends its visibility. */
        @SqsListener("${compat.queue.slow}")
        void slow(String body, Visibility visibility,
                @Header("Sqs_Msa_ApproximateReceiveCount") String receiveCount) throws InterruptedException {
            slowReceiveCounts.add(receiveCount);
            visibility.changeTo(30); // blocking in 4.x (changeToAsync is the future)
            Thread.sleep(2500);
        }

        @SqsListener("${compat.queue.fifo}")
        void fifo(String body, @Header("Sqs_Msa_MessageGroupId") String group) throws InterruptedException {
            fifoByGroup.computeIfAbsent(group, g -> new CopyOnWriteArrayList<>()).add(body);
            Thread.sleep(5); // gives a second thread the chance to overtake, were order not kept
        }
    }
}
