package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.allotment.HandoverScript;
import io.github.flashstock.inventory.mysqlstore.MirrorScript;
import io.github.flashstock.inventory.rebuild.EpochScript;
import io.github.flashstock.inventory.rebuild.RecoverScript;
import io.github.flashstock.inventory.rebuild.ReloadOutcome;
import io.github.flashstock.inventory.reservation.PeekScript;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.segments.ResegmentOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ClassPathResource;

/**
 * Each script's header lists exactly the reply codes its Java decoder knows, by the same names and in the same order
 * (one name per outcome: the metric tags are these names in lower case).
 */
class ScriptContractTest {

    private static final Pattern CODE = Pattern.compile("^--\\s+(\\d+) ([A-Z_]+)\\b");

    @ParameterizedTest
    @CsvSource({
            "try.lua, RESERVED ALREADY_RESERVED INSUFFICIENT_STOCK PURCHASE_LIMIT_EXCEEDED RESERVATION_CANCELLED UNKNOWN_SKU STALE_SKU",
            "confirm.lua, APPLIED ALREADY_APPLIED NO_RECORD ENDED_OTHERWISE HELD_IN_MYSQL RECOVERED OVERSOLD UNRECORDED REFUSED",
            "cancel.lua, APPLIED ALREADY_APPLIED NO_RECORD ENDED_OTHERWISE HELD_IN_MYSQL",
            "init.lua, CREATED EXISTS",
            "restock.lua, RESTOCKED ALREADY_APPLIED UNKNOWN_SKU",
            "resegment.lua, RESEGMENTED UNCHANGED UNKNOWN_SKU",
            "reload.lua, RELOADED OPEN_EXCEEDS",
            "migrate.lua, MIGRATED ALREADY_CURRENT UNKNOWN_SKU",
            "recover.lua, RECOVERED NOT_STALE",
            "epoch.lua, CURRENT STALE UNKNOWN_SKU",
            "release.lua, RELEASED NOT_HELD",
            "handover.lua, MOVED ALREADY_APPLIED UNKNOWN_SKU STALE_SKU REBUILDING",
            "mirror.lua, MIRRORED DUPLICATE_RELEASED ENDED_IN_REDIS UNKNOWN_SKU",
            "peek.lua, AVAILABLE ASK_THE_TRY"})
    void headerCodesMatchTheDecoder(String script, String expectedNames) throws IOException {
        List<String> header = headerCodes(script);

        assertThat(header).containsExactlyElementsOf(Arrays.asList(expectedNames.split(" ")));
        Enum<?>[] decoder = switch (script) {
            case "try.lua" -> Arrays.copyOf(TryOutcome.Code.values(), TryOutcome.Code.SCRIPT_CODES);
            case "confirm.lua" -> PhaseOutcome.Code.values();
            // the Confirm's own four codes (no record of the reservation, or its refusal) come last; Cancel has the first five
            case "cancel.lua" -> Arrays.copyOf(PhaseOutcome.Code.values(), 5);
            case "init.lua" -> InitOutcome.Code.values();
            case "restock.lua" -> RestockOutcome.Code.values();
            case "resegment.lua" -> ResegmentOutcome.Code.values();
            case "reload.lua" -> ReloadOutcome.Code.values();
            case "migrate.lua" -> MigrateOutcome.Code.values();
            case "recover.lua" -> RecoverScript.Code.values();
            case "epoch.lua" -> EpochScript.Code.values();
            case "release.lua" -> new Enum<?>[] {Released.RELEASED, Released.NOT_HELD};
            case "handover.lua" -> HandoverScript.Code.values();
            case "mirror.lua" -> MirrorScript.Code.values();
            case "peek.lua" -> PeekScript.Code.values();
            default -> throw new IllegalArgumentException(script);
        };
        assertThat(header).containsExactlyElementsOf(Arrays.stream(decoder).map(Enum::name).toList());
    }

    /**
     * One stock vocabulary: only the migration may name the first release's fields ({@code total}, {@code locked});
     * every other script reads and writes stocked, available, reserved and sold.
     */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "release.lua", "recover.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua"})
    void scriptsUseTheSharedStockFields(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);

        assertThat(code).doesNotContain("'total'", "'locked'", "\"total\"", "\"locked\"");
    }

    /**
     * Helpers several scripts need are written once and kept identical wherever they appear (a script is sent to
     * Redis whole, so each carries its own copy): the clock, named hash fields, the even spread over segments, the
     * server's identity.
     */
    @ParameterizedTest
    @CsvSource({
            "now_millis, try.lua confirm.lua cancel.lua recover.lua mirror.lua",
            "fields, try.lua confirm.lua cancel.lua init.lua restock.lua resegment.lua reload.lua migrate.lua recover.lua"
                    + " handover.lua mirror.lua",
            "share_of, init.lua restock.lua resegment.lua reload.lua recover.lua handover.lua",
            "server_id, try.lua confirm.lua init.lua recover.lua epoch.lua handover.lua peek.lua",
            "append_event, try.lua confirm.lua cancel.lua mirror.lua",
            "release_reservation, cancel.lua mirror.lua"})
    void sharedHelpersAreIdentical(String helper, String scripts) throws IOException {
        Map<String, String> copies = new LinkedHashMap<>();
        for (String script : ALL_SCRIPTS) {
            String body = helper(script, helper);
            if (body != null) {
                copies.put(script, body);
            }
        }

        assertThat(copies.keySet()).containsExactlyInAnyOrder(scripts.split(" "));
        assertThat(copies.values().stream().distinct()).as("copies of %s", helper).hasSize(1);
    }

    /** One clock: the server's, read only through {@code now_millis}; no script takes the time from its caller. */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "release.lua", "migrate.lua", "recover.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua"})
    void timeComesFromTheServerClockOnly(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
        String helper = helper(script, "now_millis");

        int reads = code.split("redis\\.call\\('TIME'\\)", -1).length - 1;
        assertThat(reads).isEqualTo(helper == null ? 0 : 1);
        assertThat(code).doesNotContainIgnoringCase("caller's clock");
    }

    /**
     * Stock events go into the SKU's stream only through {@code append_event}, with one cap on unsent events: the
     * phases that move stock (and the mirror, when it releases a duplicate) append one, and no other script writes to
     * a stream.
     */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "release.lua", "migrate.lua", "recover.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua"})
    void eventsAreAppendedOnlyThroughTheSharedHelper(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
        // mirror.lua releases a duplicate Redis reservation as cancel.lua would, with its CANCELLED event
        boolean phase = List.of("try.lua", "confirm.lua", "cancel.lua", "mirror.lua").contains(script);

        assertThat(code.split("'XADD'", -1).length - 1).as(script).isEqualTo(phase ? 1 : 0);
        assertThat(code.contains("local EVENTS_KEPT = 100000\n")).as(script).isEqualTo(phase);
        if (phase) {
            assertThat(code.split("append_event\\(", -1).length - 1).as("definition and uses in %s", script)
                    .isGreaterThanOrEqualTo(2);
        }
    }

    private static final List<String> ALL_SCRIPTS = List.of("try.lua", "confirm.lua", "cancel.lua", "init.lua",
            "restock.lua", "resegment.lua", "reload.lua", "release.lua", "migrate.lua", "recover.lua", "epoch.lua",
            "handover.lua", "mirror.lua", "peek.lua");

    /** The text of {@code local function name(...)} up to its closing {@code end} at the line start; null if none. */
    private static String helper(String script, String name) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?ms)^local function " + name + "\\(.*?^end$").matcher(code);
        return m.find() ? m.group() : null;
    }

    /** {@link RebuildLock} runs release.lua without reading its reply; its two codes, for the header check. */
    private enum Released { RELEASED, NOT_HELD }

    /** The codes listed in the header, checked to be numbered 0, 1, 2, ... */
    private static List<String> headerCodes(String script) throws IOException {
        String text = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
        List<String> names = new ArrayList<>();
        for (String line : text.lines().takeWhile(l -> l.startsWith("--")).toList()) {
            Matcher m = CODE.matcher(line);
            if (m.find()) {
                assertThat(Integer.parseInt(m.group(1))).as("code number in %s: %s", script, line).isEqualTo(names.size());
                names.add(m.group(2));
            }
        }
        return names;
    }
}
