package io.github.flashstock.inventory.stock;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flashstock.inventory.allotment.HandoverScript;
import io.github.flashstock.inventory.mysqlstore.MirrorScript;
import io.github.flashstock.inventory.rebuild.EpochScript;
import io.github.flashstock.inventory.rebuild.RebuildScript;
import io.github.flashstock.inventory.rebuild.ReloadOutcome;
import io.github.flashstock.inventory.redis.Scripts;
import io.github.flashstock.inventory.reservation.PeekScript;
import io.github.flashstock.inventory.reservation.PhaseOutcome;
import io.github.flashstock.inventory.reservation.TryOutcome;
import io.github.flashstock.inventory.segments.ResegmentOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Each script's header lists exactly the reply codes its Java decoder knows, by the same names and in the same order
 * (one name per outcome: the metric tags are these names in lower case); the shared helpers live in the prelude only.
 */
class ScriptContractTest {

    private static final Pattern CODE = Pattern.compile("^--\\s+(\\d+) ([A-Z_]+)\\b");

    @ParameterizedTest
    @CsvSource({
            "try.lua, RESERVED ALREADY_RESERVED INSUFFICIENT_STOCK PURCHASE_LIMIT_EXCEEDED RESERVATION_CANCELLED UNKNOWN_SKU STALE_SKU SALE_CLOSED BOOKED",
            "confirm.lua, APPLIED ALREADY_APPLIED NO_RECORD ENDED_OTHERWISE HELD_IN_MYSQL FAILED TAKEN_UNRECORDED OVERSOLD UNRECORDED REFUSED",
            "cancel.lua, APPLIED ALREADY_APPLIED NO_RECORD ENDED_OTHERWISE HELD_IN_MYSQL FAILED",
            "init.lua, CREATED EXISTS",
            "restock.lua, RESTOCKED ALREADY_APPLIED UNKNOWN_SKU",
            "resegment.lua, RESEGMENTED UNCHANGED UNKNOWN_SKU",
            "reload.lua, RELOADED OPEN_EXCEEDS",
            "migrate.lua, MIGRATED ALREADY_CURRENT UNKNOWN_SKU",
            "rebuild.lua, REBUILT NOT_STALE",
            "epoch.lua, CURRENT STALE UNKNOWN_SKU",
            "unlock.lua, UNLOCKED NOT_HELD",
            "handover.lua, MOVED ALREADY_APPLIED UNKNOWN_SKU STALE_SKU REBUILDING",
            "mirror.lua, MIRRORED DUPLICATE_RELEASED ENDED_IN_REDIS UNKNOWN_SKU SALE_RETURNED",
            "peek.lua, AVAILABLE ASK_THE_TRY",
            "book.lua, BOOKED PURCHASE_LIMIT_EXCEEDED RECORDED_OTHERWISE UNKNOWN_SKU RELEASED",
            "limit.lua, SET UNKNOWN_SKU REBUILDING",
            "close.lua, CLOSED UNKNOWN_SKU",
            "sweep.lua, SWEPT NOT_CLOSED NOT_OVER UNKNOWN_SKU"})
    void headerCodesMatchTheDecoder(String script, String expectedNames) throws IOException {
        List<String> header = headerCodes(script);

        assertThat(header).containsExactlyElementsOf(Arrays.asList(expectedNames.split(" ")));
        Enum<?>[] decoder = switch (script) {
            case "try.lua" -> Arrays.copyOf(TryOutcome.Code.values(), TryOutcome.Code.SCRIPT_CODES);
            case "confirm.lua" -> PhaseOutcome.Code.values();
            // the Confirm's own four codes (no record of the reservation, or its refusal) come last; Cancel has the first six
            case "cancel.lua" -> Arrays.copyOf(PhaseOutcome.Code.values(), 6);
            case "init.lua" -> InitOutcome.Code.values();
            case "restock.lua" -> RestockOutcome.Code.values();
            case "resegment.lua" -> ResegmentOutcome.Code.values();
            case "reload.lua" -> ReloadOutcome.Code.values();
            case "migrate.lua" -> MigrateOutcome.Code.values();
            case "rebuild.lua" -> RebuildScript.Code.values();
            case "epoch.lua" -> EpochScript.Code.values();
            case "unlock.lua" -> new Enum<?>[] {Unlocked.UNLOCKED, Unlocked.NOT_HELD};
            case "handover.lua" -> HandoverScript.Code.values();
            case "mirror.lua" -> MirrorScript.Code.values();
            case "close.lua" -> SaleEndScript.Close.values();
            case "sweep.lua" -> SaleEndScript.Sweep.values();
            case "peek.lua" -> PeekScript.Code.values();
            case "book.lua" -> io.github.flashstock.inventory.reservation.BookScript.Code.values();
            case "limit.lua" -> LimitScript.Code.values();
            default -> throw new IllegalArgumentException(script);
        };
        assertThat(header).containsExactlyElementsOf(Arrays.stream(decoder).map(Enum::name).toList());
    }

    /**
     * One stock vocabulary: only the migration may name the first release's fields ({@code total}, {@code locked});
     * every other script, and the prelude that precedes them all, reads and writes stocked, available, reserved and
     * sold.
     */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "unlock.lua", "rebuild.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua", "book.lua",
            "moving.lua", "limit.lua"})
    void scriptsUseTheSharedStockFields(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);

        assertThat(code).doesNotContain("'total'", "'locked'", "\"total\"", "\"locked\"");
        assertThat(text(Scripts.PRELUDE)).doesNotContain("'total'", "'locked'", "\"total\"", "\"locked\"");
    }

    /**
     * Helpers several scripts need are written once, in {@code lua/prelude.lua}, which {@link Scripts} puts before
     * every script: no script defines a function under a prelude helper's name again (a copy crept back, or a local
     * version that would shadow the shared one).
     */
    @ParameterizedTest
    @MethodSource("scriptsInLua")
    void noScriptDefinesAPreludeHelperAgain(String script) throws IOException {
        String code = text(script);
        List<String> again = preludeHelpers().stream().filter(name -> definesFunction(code, name)).toList();

        assertThat(again).as("prelude helpers defined again in %s", script).isEmpty();
    }

    /** The prelude holds what several scripts share; a helper only one script uses belongs in that script. */
    @Test
    void everyPreludeHelperServesSeveralScripts() throws IOException {
        assertThat(preludeHelpers()).contains("fields", "server_id", "share_of", "now_millis", "append_event",
                "release_reservation");
        for (String helper : preludeHelpers()) {
            Pattern call = Pattern.compile("\\b" + helper + "\\(");
            List<String> users = new ArrayList<>();
            for (String script : scriptsInLua()) {
                if (call.matcher(text(script)).find()) {
                    users.add(script);
                }
            }
            assertThat(users).as("scripts calling %s", helper).hasSizeGreaterThanOrEqualTo(2);
        }
    }

    /**
     * What Redis is sent is the prelude, one newline, then the script, so the script's line n is line P + n of it,
     * P being the prelude file's line count ({@code wc -l}, as its header and {@code bin/lua-eval} say): the prelude
     * ends with the {@code end} of its last helper and one newline.
     */
    @ParameterizedTest
    @MethodSource("scriptsInLua")
    void theLoaderPutsThePreludeBeforeTheScript(String script) throws IOException {
        String prelude = text(Scripts.PRELUDE);
        String sent = Scripts.source(script);
        long preludeLines = prelude.chars().filter(c -> c == '\n').count();

        assertThat(prelude).endsWith("\nend\n");
        assertThat(sent).isEqualTo(prelude + text(script));
        assertThat(sent.lines().skip(preludeLines).findFirst()).as("line P + 1 of what %s sends", script)
                .hasValue(text(script).lines().findFirst().orElseThrow());
    }

    /**
     * One clock: the server's, read only through the prelude's {@code now_millis}; no script takes the time from its
     * caller.
     */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "unlock.lua", "migrate.lua", "rebuild.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua"})
    void timeComesFromTheServerClockOnly(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);

        assertThat(code).doesNotContain("'TIME'");
        assertThat(code).doesNotContainIgnoringCase("caller's clock");
        assertThat(text(Scripts.PRELUDE).split("redis\\.call\\('TIME'\\)", -1)).as("TIME reads in the prelude")
                .hasSize(2);
    }

    /**
     * Stock events go into the SKU's stream only through the prelude's {@code append_event}, with one cap on unsent
     * events: the phases that move stock (and the mirror, when it releases a duplicate) append one, directly or, for
     * the second phases, through the prelude's {@code each_phase}, and no other script writes to a stream.
     */
    @ParameterizedTest
    @ValueSource(strings = {"try.lua", "confirm.lua", "cancel.lua", "init.lua", "restock.lua", "resegment.lua",
            "reload.lua", "unlock.lua", "migrate.lua", "rebuild.lua", "epoch.lua", "handover.lua", "mirror.lua", "peek.lua"})
    void eventsAreAppendedOnlyThroughTheSharedHelper(String script) throws IOException {
        String code = new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
        // mirror.lua releases a duplicate Redis reservation as cancel.lua would, with its CANCELLED event
        boolean phase = List.of("try.lua", "confirm.lua", "cancel.lua", "mirror.lua").contains(script);

        assertThat(code).as(script).doesNotContain("'XADD'", "EVENTS_KEPT =");
        assertThat(code.contains("append_event(") || code.contains("each_phase(")).as("%s appends events", script)
                .isEqualTo(phase);
        String prelude = text(Scripts.PRELUDE);
        assertThat(prelude.split("'XADD'", -1)).as("XADD in the prelude").hasSize(2);
        assertThat(prelude).contains("local EVENTS_KEPT = 100000\n");
    }

    /** Every script in {@code lua/} on the class path, the prelude aside. */
    static List<String> scriptsInLua() throws IOException {
        List<String> names = new ArrayList<>();
        for (Resource r : new PathMatchingResourcePatternResolver().getResources("classpath:lua/*.lua")) {
            if (!Scripts.PRELUDE.equals(r.getFilename())) {
                names.add(r.getFilename());
            }
        }
        assertThat(names).as("scripts in lua/").hasSizeGreaterThan(10);
        return names.stream().sorted().toList();
    }

    /**
     * Whether the code defines a function of that name: {@code [local] function name(} or {@code [local] name =
     * function}, at any indentation.
     */
    private static boolean definesFunction(String code, String name) {
        String quoted = Pattern.quote(name);
        return Pattern.compile("(?m)^\\s*(local\\s+)?function\\s+" + quoted + "\\s*\\(").matcher(code).find()
                || Pattern.compile("(?m)^\\s*(local\\s+)?" + quoted + "\\s*=\\s*function\\b").matcher(code).find();
    }

    /** The names of the prelude's {@code local function}s. */
    private static List<String> preludeHelpers() throws IOException {
        Matcher m = Pattern.compile("(?m)^local function (\\w+)\\(").matcher(text(Scripts.PRELUDE));
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String text(String script) throws IOException {
        return new ClassPathResource("lua/" + script).getContentAsString(StandardCharsets.UTF_8);
    }

    /** {@link RebuildLock} runs unlock.lua without reading its reply; its two codes, for the header check. */
    private enum Unlocked { UNLOCKED, NOT_HELD }

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
