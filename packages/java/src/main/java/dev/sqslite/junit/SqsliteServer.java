package dev.sqslite.junit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One sqslite process on 127.0.0.1 and a free port, with its admin API (reset, manual clock). */
public final class SqsliteServer implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private static final Pattern NOW = Pattern.compile("\"now\"\\s*:\\s*(\\d+)");
    private static Path extracted;

    private final Process process;
    private final Path log;
    private final URI endpoint;
    private final HttpClient http = HttpClient.newHttpClient();
    private Object sqsClient;

    private SqsliteServer(Process process, Path log, URI endpoint) {
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
    }

    /** Starts the binary ({@link #binary()}); blank config or clock leave the binary's defaults. */
    public static SqsliteServer start(String config, String clock, boolean strict) {
        return start(config, clock, strict, "", -1);
    }

    /**
     * As {@link #start(String, String, boolean)}, with a delivery mode ({@code "exact"} or
     * {@code "at-least-once"}; blank: the binary's) and its seed (negative: the binary's).
     */
    public static SqsliteServer start(String config, String clock, boolean strict,
            String delivery, long deliverySeed) {
        List<String> command = new ArrayList<>(List.of(binary().toString(), "--port", "0"));
        if (!delivery.isBlank()) {
            command.addAll(List.of("--delivery", delivery));
        }
        if (deliverySeed >= 0) {
            command.addAll(List.of("--delivery-seed", Long.toString(deliverySeed)));
        }
        if (!clock.isBlank()) {
            command.addAll(List.of("--clock", clock));
        }
        if (!config.isBlank()) {
            command.addAll(List.of("--config", Path.of(config).toAbsolutePath().toString()));
        }
        if (strict) {
            command.add("--strict");
        }
        try {
            // A log file rather than a pipe: nothing has to drain it (removed by close()).
            Path log = Files.createTempFile("sqslite-", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
            builder.environment().put("NO_COLOR", "1");
            builder.environment().put("SQSLITE_LOG", "info");
            Process process = builder.start();
            return new SqsliteServer(process, log, awaitEndpoint(process, log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static URI awaitEndpoint(Process process, Path log) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher match = LISTENING.matcher(Files.readString(log));
            if (match.find()) {
                return URI.create(match.group(1));
            }
            if (!process.isAlive()) {
                break;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        process.destroyForcibly();
        String output = Files.readString(log);
        Files.deleteIfExists(log);
        throw new IllegalStateException("sqslite did not report its address; log:\n" + output);
    }

    /**
     * The binary: $SQSLITE_BIN, else the one in this jar for this platform, copied once per JVM
     * to an executable temporary file (a jar entry cannot be run in place).
     */
    public static synchronized Path binary() {
        String explicit = System.getenv("SQSLITE_BIN");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        if (extracted == null) {
            String platform = platform();
            String resource = "/dev/sqslite/bin/" + platform + "/sqslite";
            try (InputStream in = SqsliteServer.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("this sqslite jar has no binary for " + platform
                            + "; set SQSLITE_BIN");
                }
                Path file = Files.createTempFile("sqslite-", "");
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                if (!file.toFile().setExecutable(true, true)) {
                    throw new IOException("cannot make " + file + " executable");
                }
                file.toFile().deleteOnExit();
                extracted = file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return extracted;
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String name = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "macos" : os;
        return name + "-" + (arch.equals("amd64") ? "x86_64" : arch.equals("arm64") ? "aarch64" : arch);
    }

    /** The URL to give an SDK as its endpoint. */
    public URI endpoint() {
        return endpoint;
    }

    /** The server's log so far (the binary's stderr). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Back to the started state: declared queues empty, every other queue gone. */
    public void reset() {
        admin("POST", "/_sqslite/reset", "");
    }

    /** Moves a manual clock on; answers the new time in epoch milliseconds. */
    public long advanceClock(Duration step) {
        return now(admin("POST", "/_sqslite/clock/advance", "{\"milliseconds\":" + step.toMillis() + "}"));
    }

    /** The server's clock in epoch milliseconds. */
    public long now() {
        return now(admin("GET", "/_sqslite/clock", null));
    }

    private static long now(String json) {
        Matcher match = NOW.matcher(json);
        if (!match.find()) {
            throw new IllegalStateException("sqslite: no time in " + json);
        }
        return Long.parseLong(match.group(1));
    }

    private String admin(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve(path))
                .header("content-type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(30)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException("sqslite: " + method + " " + path + ": "
                        + response.statusCode() + " " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An SDK v2 SqsClient for this server (us-east-1, throwaway credentials), made once. */
    public synchronized software.amazon.awssdk.services.sqs.SqsClient sqsClient() {
        if (sqsClient == null) {
            sqsClient = SdkClients.sqs(endpoint);
        }
        return (software.amazon.awssdk.services.sqs.SqsClient) sqsClient;
    }

    @Override
    public synchronized void close() {
        if (sqsClient instanceof AutoCloseable client) {
            SdkClients.closeQuietly(client);
        }
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary file left behind
        }
    }
}
