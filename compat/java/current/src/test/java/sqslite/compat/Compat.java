package sqslite.compat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * Shared by every Java client suite: the sqslite under test (compat/run.sh passes its URL in
 * SQSLITE_ENDPOINT), unique queue names, SQS's MD5 of a body, and sqslite's own /metrics.
 */
public final class Compat {
    public static final String REGION = "us-east-1";
    public static final String ACCESS_KEY = "test";
    public static final String SECRET_KEY = "test";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Compat() {}

    public static String endpoint() {
        String url = System.getenv("SQSLITE_ENDPOINT");
        if (url == null || url.isEmpty()) {
            throw new IllegalStateException("SQSLITE_ENDPOINT is not set: run the suite through compat/run.sh");
        }
        return url;
    }

    public static URI endpointUri() {
        return URI.create(endpoint());
    }

    public static String uniqueName(String prefix, boolean fifo) {
        return prefix + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + (fifo ? ".fifo" : "");
    }

    public static String queueName(String url) {
        return url.substring(url.lastIndexOf('/') + 1);
    }

    public static String md5Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String md5OfBody(String body) {
        return md5Hex(body.getBytes(StandardCharsets.UTF_8));
    }

    /** SQS's length-prefixed field, as its MD5 of message attributes encodes names and values. */
    public static byte[] lengthPrefixed(byte[] bytes) {
        return ByteBuffer.allocate(4 + bytes.length).putInt(bytes.length).put(bytes).array();
    }

    /** The whole /metrics page of the server under test. */
    public static String metrics() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint() + "/metrics")).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The value of one series of /metrics, or 0 while it has not appeared. */
    public static double metric(String page, String name, String... labels) {
        for (String line : page.split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String series = line.substring(0, line.lastIndexOf('}') + 1);
            boolean all = true;
            for (String label : labels) {
                all &= series.contains(label);
            }
            if (all) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /** How many SQS requests of one action the server has answered with success so far. */
    public static long requests(String action) {
        return (long) metric(metrics(), "sqslite_requests_total", "action=\"" + action + "\"", "outcome=\"success\"");
    }

    /** Waits until a ReceiveMessage is parked on the queue, so that what follows is what wakes it. */
    public static void waitParked(String queueUrl) {
        String label = "queue=\"" + queueName(queueUrl) + "\"";
        await(Duration.ofSeconds(5), () -> metric(metrics(), "sqslite_receives_waiting", label) >= 1,
                "no receive parked on " + queueUrl);
    }

    /** Polls `condition` every 20 ms until it holds; fails after `timeout`. */
    public static void await(Duration timeout, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted: " + what, e);
            }
        }
    }
}
