package io.github.flashstock.devstack;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The few Redis commands the devstack's probes need (PING, CLUSTER INFO), spoken in RESP over a plain socket,
 * so that checking a server needs no client library. Not for application use.
 */
final class Resp {

    private Resp() {
    }

    /** Sends one command and returns its reply: String, Long, List, null, or throws on a Redis error reply. */
    static Object call(int port, String... command) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            StringBuilder req = new StringBuilder("*").append(command.length).append("\r\n");
            for (String part : command) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                req.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
            }
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read(new BufferedInputStream(socket.getInputStream()));
        }
    }

    /**
     * Sends the commands back to back on one connection and returns their replies in order; an error reply comes back
     * as its text ({@code -ERR ...}) rather than thrown, so that one refused command does not hide the others.
     */
    static List<Object> pipeline(int port, List<String[]> commands) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(2000);
            OutputStream out = socket.getOutputStream();
            StringBuilder req = new StringBuilder();
            for (String[] command : commands) {
                req.append('*').append(command.length).append("\r\n");
                for (String part : command) {
                    byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                    req.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
                }
            }
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            List<Object> replies = new ArrayList<>(commands.size());
            for (int i = 0; i < commands.size(); i++) {
                try {
                    replies.add(read(in));
                } catch (IllegalStateException e) {
                    // the error line is read whole: the next reply starts right after it
                    replies.add("-" + e.getMessage().substring("Redis error: ".length()));
                }
            }
            return replies;
        }
    }

    /** True when the server on {@code port} answers PING with PONG. */
    static boolean ping(int port) {
        try {
            return "PONG".equals(call(port, "PING"));
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }

    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        String line = readLine(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IllegalStateException("Redis error: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(len);
                in.readNBytes(2);
                return new String(data, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read(in));
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type byte " + type);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int prev = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (prev == '\r' && b == '\n') {
                byte[] bytes = buf.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            buf.write(b);
            prev = b;
        }
        throw new IOException("connection closed mid-reply");
    }
}
