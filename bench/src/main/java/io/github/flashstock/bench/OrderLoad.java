package io.github.flashstock.bench;

import io.github.flashstock.clients.ServiceHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A closed-loop load: {@code clients} threads, each sending its next request as soon as the last one was answered,
 * until every prepared request went out once. Every answer's status, latency and time of completion is kept.
 */
final class OrderLoad {

    /** One prepared request: where to, what body, which extra headers. */
    record Call(URI uri, String body, Map<String, String> headers) {
    }

    /**
     * What a run saw: per request (in order of sending) its HTTP status (-1: no answer), its latency and when it
     * completed, in nanoseconds from the start of the run.
     */
    record Result(int[] status, long[] latencyNanos, long[] doneAtNanos, long wallNanos) {

        int count(int code) {
            return (int) Arrays.stream(status).filter(s -> s == code).count();
        }

        /** Status codes and how often each came. */
        Map<Integer, Integer> statuses() {
            Map<Integer, Integer> counts = new TreeMap<>();
            Arrays.stream(status).forEach(s -> counts.merge(s, 1, Integer::sum));
            return counts;
        }

        double perSecond(int code) {
            return count(code) / (wallNanos / 1e9);
        }

        double answeredPerSecond() {
            return status.length / (wallNanos / 1e9);
        }

        /** Latency percentile in milliseconds over all answers, {@code q} in (0, 1]. */
        double percentileMillis(double q) {
            return percentile(latencyNanos, q) / 1e6;
        }

        static double percentile(long[] values, double q) {
            if (values.length == 0) {
                return 0;
            }
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            int index = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }
    }

    Result run(List<Call> calls, int clients) throws InterruptedException {
        int n = calls.size();
        int[] status = new int[n];
        long[] latency = new long[n];
        long[] doneAt = new long[n];
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            pool.execute(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    Call call = calls.get(i);
                    HttpRequest.Builder request = HttpRequest.newBuilder(call.uri())
                            .timeout(Duration.ofSeconds(60))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(call.body()));
                    call.headers().forEach(request::header);
                    long t0 = System.nanoTime();
                    int code;
                    try {
                        code = ServiceHttp.client().send(request.build(), HttpResponse.BodyHandlers.discarding())
                                .statusCode();
                    } catch (IOException e) {
                        code = -1;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    long t1 = System.nanoTime();
                    status[i] = code;
                    latency[i] = t1 - t0;
                    doneAt[i] = t1 - start;
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(30, TimeUnit.MINUTES)) {
            pool.shutdownNow();
            throw new IllegalStateException("the load did not finish in 30 minutes");
        }
        return new Result(status, latency, doneAt, System.nanoTime() - start);
    }
}
