package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * nacos-config/import.sh against a stand-in for the Nacos open API (there is no Nacos server here): it must publish
 * every dataId of the folder, whole, as yaml, with the form fields Nacos reads.
 */
class NacosImportScriptTest {

    private static final Path ROOT = Path.of(System.getProperty("devstack.root", "..")).toAbsolutePath().normalize();

    /** What the script printed and its exit code. */
    record Run(int exitCode, String output) {
    }

    /** Runs import.sh against a stand-in open API that records every form and answers {@code answer}. */
    private static Run importAgainst(String answer, List<Map<String, String>> published) throws Exception {
        HttpServer nacos = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        nacos.createContext("/nacos/v1/cs/configs", exchange -> {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> fields = new HashMap<>();
            for (String pair : form.split("&")) {
                String[] kv = pair.split("=", 2);
                fields.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        URLDecoder.decode(kv.length > 1 ? kv[1] : "", StandardCharsets.UTF_8));
            }
            fields.put("method", exchange.getRequestMethod());
            published.add(fields);
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        nacos.start();
        try {
            ProcessBuilder script = new ProcessBuilder("bash", ROOT.resolve("nacos-config/import.sh").toString())
                    .redirectErrorStream(true);
            script.environment().put("NACOS_SERVER_ADDR", "127.0.0.1:" + nacos.getAddress().getPort());
            Process run = script.start();
            String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();
            return new Run(run.exitValue(), output);
        } finally {
            nacos.stop(0);
        }
    }

    @Test
    void publishesEveryDataIdOfTheFolderThroughTheOpenApi() throws Exception {
        List<Map<String, String>> published = new CopyOnWriteArrayList<>();

        Run run = importAgainst("true", published);

        assertThat(run.exitCode()).as(run.output()).isZero();
        List<Path> files;
        try (var listing = Files.list(ROOT.resolve("nacos-config"))) {
            files = listing.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString())
                .contains("inventory-service.yaml", "order-demo.yaml");
        assertThat(published).hasSameSizeAs(files);
        for (Path file : files) {
            Map<String, String> fields = published.stream()
                    .filter(f -> file.getFileName().toString().equals(f.get("dataId"))).findFirst().orElseThrow();
            assertThat(fields).containsEntry("method", "POST").containsEntry("group", "DEFAULT_GROUP")
                    .containsEntry("type", "yaml").containsEntry("content", Files.readString(file));
        }
    }

    @Test
    void failsWhenNacosRefusesADataId() throws Exception {
        Run run = importAgainst("false", new CopyOnWriteArrayList<>());

        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("failed");
    }
}
