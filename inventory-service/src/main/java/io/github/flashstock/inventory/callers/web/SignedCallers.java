package io.github.flashstock.inventory.callers.web;

import io.github.flashstock.inventory.callers.CallerSettings;
import io.github.flashstock.support.auth.ServiceSignature;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.seata.core.context.RootContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Only known services reserve stock: {@code POST /reservations} must carry a valid {@link ServiceSignature} of a
 * service named in {@code inventory.callers.keys}, over the exact request (its XID and body included), or it is
 * answered 401 {@code unknown-caller} and nothing happens, before the request joins any global transaction. Counted
 * by the reason in the log; the answer says why, without saying whether the XID is live.
 */
class SignedCallers extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(SignedCallers.class);

    /** The request attribute holding the name of the service that signed the request. */
    public static final String CALLER = SignedCallers.class.getName() + ".caller";

    private final Map<String, byte[]> keys;
    private final CallerSettings settings;
    private final Clock clock;

    public SignedCallers(CallerSettings settings, Clock clock) {
        if (settings.keys().isEmpty()) {
            throw new IllegalStateException("inventory.callers.keys names no service: name each service that may"
                    + " reserve stock with the key it signs its requests with (inventory.callers.keys.order-demo,"
                    + " environment INVENTORY_CALLERS_KEYS_ORDERDEMO; docs/operations.md, \"Before production\")");
        }
        Map<String, byte[]> byName = new LinkedHashMap<>();
        settings.keys().forEach((name, key) -> byName.put(name,
                ServiceSignature.key("inventory.callers.keys." + name, key)));
        this.keys = Map.copyOf(byName);
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"/reservations".equals(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        byte[] body = request.getInputStream().readAllBytes();
        Optional<String> refusal = ServiceSignature.verify(keys, request.getHeader(ServiceSignature.NAME),
                request.getHeader(ServiceSignature.TIMESTAMP), request.getHeader(ServiceSignature.SIGNATURE),
                request.getMethod(), request.getRequestURI(), request.getHeader(RootContext.KEY_XID), body,
                clock.instant(), settings.window());
        if (refusal.isPresent()) {
            log.warn("reservation call refused from {}: {}", request.getRemoteAddr(), refusal.get());
            response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            response.setHeader("WWW-Authenticate", "ServiceSignature");
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            String detail = refusal.get().replace("\\", "\\\\").replace("\"", "\\\"");
            response.getOutputStream().write(("{\"type\":\"" + ProblemDetails.TYPE_PREFIX + "unknown-caller\","
                    + "\"title\":\"Unknown caller\",\"status\":401,\"detail\":\"" + detail + "\"}")
                    .getBytes(StandardCharsets.UTF_8));
            return;
        }
        request.setAttribute(CALLER, request.getHeader(ServiceSignature.NAME));
        chain.doFilter(new WithBody(request, body), response);
    }

    /** The request with the body already read for the signature, served again to the controller. */
    private static final class WithBody extends HttpServletRequestWrapper {
        private final byte[] body;

        WithBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
