package io.github.flashstock.support.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class BodySizeLimitTest {

    private final BodySizeLimit limit = new BodySizeLimit(100);

    @Test
    void aBodyThatSaysItIsTooLargeIsRefusedUnread() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
        request.setContent(new byte[101]);
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicReference<Boolean> reached = new AtomicReference<>(false);
        limit.doFilter(request, response, (req, res) -> reached.set(true));
        assertThat(reached.get()).isFalse();
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getContentAsString()).contains("payload-too-large", "100 bytes");
    }

    @Test
    void aChunkedBodyIsCountedAsItIsRead() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders") {
            @Override
            public long getContentLengthLong() {
                return -1; // sent in chunks: no length said
            }
        };
        request.setContent(new byte[150]);
        AtomicReference<HttpServletRequest> seen = new AtomicReference<>();
        limit.doFilter(request, new MockHttpServletResponse(), (req, res) -> seen.set((HttpServletRequest) req));
        byte[] buffer = new byte[60];
        assertThat(seen.get().getInputStream().read(buffer)).isEqualTo(60);
        assertThatThrownBy(() -> seen.get().getInputStream().read(buffer))
                .isInstanceOf(BodySizeLimit.BodyTooLarge.class).hasMessageContaining("100 bytes");
    }

    @Test
    void aBodyWithinTheLimitPassesWhole() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders");
        request.setContent(new byte[100]);
        AtomicReference<byte[]> read = new AtomicReference<>();
        limit.doFilter(request, new MockHttpServletResponse(),
                (req, res) -> read.set(req.getInputStream().readAllBytes()));
        assertThat(read.get()).hasSize(100);
    }

    @Test
    void aFilterThatReadsPastTheLimitGetsThe413Too() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/reservations") {
            @Override
            public long getContentLengthLong() {
                return -1;
            }
        };
        request.setContent(new byte[150]);
        MockHttpServletResponse response = new MockHttpServletResponse();
        limit.doFilter(request, response, (req, res) -> req.getInputStream().readAllBytes());
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentAsString()).contains("payload-too-large");
    }
}
