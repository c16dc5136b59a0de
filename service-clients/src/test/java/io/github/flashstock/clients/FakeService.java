package io.github.flashstock.clients;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A service on a loopback port that answers what a test queued, in order, and keeps every request it got: the JDK's
 * own HTTP server, no framework.
 */
final class FakeService implements AutoCloseable {

    record Request(String method, String path, Headers headers, String body) {

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    record Answer(int status, String contentType, String body, Map<String, String> headers) {
    }

    private final HttpServer server;
    private final Queue<Answer> answers = new ArrayDeque<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeService() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders(),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            Answer answer;
            synchronized (answers) {
                answer = answers.isEmpty() ? new Answer(500, "text/plain", "nothing queued", Map.of()) : answers.poll();
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            answer.headers().forEach(exchange.getResponseHeaders()::set);
            exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    FakeService answer(int status, String json) {
        return answer(status, json, Map.of());
    }

    FakeService answer(int status, String json, Map<String, String> headers) {
        synchronized (answers) {
            answers.add(new Answer(status, status >= 400 ? "application/problem+json" : "application/json", json,
                    headers));
        }
        return this;
    }

    List<Request> requests() {
        return requests;
    }

    Request last() {
        return requests.get(requests.size() - 1);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
