package io.github.flashstock.support.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request body larger than the limit before anything parses it: 413 {@code payload-too-large}. A body that
 * says its length is refused at once, unread; one sent in chunks is counted as it is read, and reading stops with
 * {@link BodyTooLarge} at the first byte past the limit (the advice turns it into the same 413). So a list of a
 * million lines is never built in memory to be refused by its size check afterwards.
 */
public class BodySizeLimit extends OncePerRequestFilter {

    private final long maxBytes;

    public BodySizeLimit(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("the body size limit must be positive, not " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            refuse(response, maxBytes);
            return;
        }
        try {
            chain.doFilter(new Limited(request, maxBytes), response);
        } catch (IOException | ServletException e) {
            // read past the limit outside Spring MVC's advice (a filter that reads the body itself)
            if (!tooLarge(e) || response.isCommitted()) {
                throw e;
            }
            response.reset();
            refuse(response, maxBytes);
        }
    }

    private static boolean tooLarge(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof BodyTooLarge) {
                return true;
            }
        }
        return false;
    }

    /** Writes the 413 problem (Tomcat swallows the unread rest of the body up to its max-swallow-size, then closes). */
    static void refuse(HttpServletResponse response, long maxBytes) throws IOException {
        response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        String body = "{\"type\":\"" + ProblemDetails.TYPE_PREFIX + "payload-too-large\",\"title\":\"Payload too large\","
                + "\"status\":413,\"detail\":\"the request body is larger than " + maxBytes + " bytes\"}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    /** Reading past the limit: nothing of the request was acted on. */
    public static final class BodyTooLarge extends IOException {
        private final long maxBytes;

        BodyTooLarge(long maxBytes) {
            super("the request body is larger than " + maxBytes + " bytes");
            this.maxBytes = maxBytes;
        }

        public long maxBytes() {
            return maxBytes;
        }
    }

    /** The request with its body stream counted. */
    private static final class Limited extends HttpServletRequestWrapper {
        private final long maxBytes;
        private ServletInputStream counted;

        Limited(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (counted == null) {
                counted = new Counted(super.getInputStream(), maxBytes);
            }
            return counted;
        }
    }

    private static final class Counted extends ServletInputStream {
        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        Counted(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        private int count(int n) throws BodyTooLarge {
            if (n > 0) {
                read += n;
                if (read > maxBytes) {
                    throw new BodyTooLarge(maxBytes);
                }
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            return count(in.read(buffer, offset, length));
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
