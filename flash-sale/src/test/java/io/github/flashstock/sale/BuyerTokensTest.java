package io.github.flashstock.sale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * The harness's buyer tokens verify with the public key file it hands order-demo, read as Spring Boot reads
 * {@code public-key-location}, and name the buyer; another key's do not.
 */
class BuyerTokensTest {

    @TempDir
    Path dir;

    /** What order-demo builds from the PEM file: Spring Boot strips the armour and decodes an X.509 key. */
    private static JwtDecoder orderDemoDecoder(Path pem) throws Exception {
        String base64 = Files.readString(pem).replace("-----BEGIN PUBLIC KEY-----", "")
                .replace("-----END PUBLIC KEY-----", "").replaceAll("\\s", "");
        RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        return NimbusJwtDecoder.withPublicKey(key).signatureAlgorithm(SignatureAlgorithm.RS256).build();
    }

    private static String token(String bearer) {
        assertThat(bearer).startsWith("Bearer ");
        return bearer.substring("Bearer ".length());
    }

    @Test
    void aBuyersTokenVerifiesWithThePublicKeyOrderDemoIsGivenAndNamesTheBuyer() throws Exception {
        BuyerTokens buyers = BuyerTokens.generate();
        Map<String, String> environment = buyers.orderDemoEnvironment(dir.resolve("keys/order-demo-8082.pub.pem"));

        Jwt jwt = orderDemoDecoder(dir.resolve("keys/order-demo-8082.pub.pem")).decode(token(buyers.bearer("buyer-7")));

        assertThat(jwt.getSubject()).isEqualTo("buyer-7");
        assertThat(jwt.getClaimAsString("iss")).isEqualTo(BuyerTokens.ISSUER);
        assertThat(jwt.getExpiresAt()).isAfter(Instant.now().plus(BuyerTokens.LIFETIME).minus(Duration.ofMinutes(1)));
        assertThat(environment).containsEntry("ORDERS_BUYERS_ISSUER", BuyerTokens.ISSUER)
                .containsEntry("ORDERS_BUYERS_AUDIENCE", BuyerTokens.AUDIENCE)
                .containsEntry("ORDERS_BUYERS_PUBLIC_KEY_LOCATION",
                        "file:" + dir.resolve("keys/order-demo-8082.pub.pem").toAbsolutePath());
    }

    @Test
    void aBuyersTokenIsMintedOnceAndReused() {
        BuyerTokens buyers = BuyerTokens.generate();

        String first = buyers.bearer("buyer-1");
        buyers.mintAhead(List.of("buyer-1", "buyer-2", "buyer-2"));

        assertThat(buyers.bearer("buyer-1")).isSameAs(first);
        assertThat(buyers.bearer("buyer-2")).isNotEqualTo(first);
    }

    @Test
    void tokensOfAnotherKeyDoNotVerify() throws Exception {
        BuyerTokens trusted = BuyerTokens.generate();
        BuyerTokens other = BuyerTokens.generate();
        JwtDecoder decoder = orderDemoDecoder(trusted.writePublicKey(dir.resolve("trusted.pub.pem")));

        assertThatThrownBy(() -> decoder.decode(token(other.bearer("buyer-1")))).isInstanceOf(BadJwtException.class);
    }
}
