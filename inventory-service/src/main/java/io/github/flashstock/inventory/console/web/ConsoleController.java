package io.github.flashstock.inventory.console.web;

import io.github.flashstock.inventory.allotment.AllotmentTarget;
import io.github.flashstock.inventory.catalog.StockCatalog;
import io.github.flashstock.inventory.catalog.web.AdminController;
import io.github.flashstock.inventory.console.ClusterReadings;
import io.github.flashstock.inventory.console.InstanceReading;
import io.github.flashstock.inventory.console.InstanceReadings;
import io.github.flashstock.inventory.console.SkuSettingsPublisher;
import io.github.flashstock.inventory.stock.AuditMapper;
import io.github.flashstock.inventory.stock.SegmentCounts;
import io.github.flashstock.inventory.stock.web.Problems;
import io.github.flashstock.support.web.BadInputAdvice;
import io.github.flashstock.support.web.ProblemDetails;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * What the sale console reads and changes (docs/api.md, "The sale console"); every path is under {@code /admin}, so
 * it needs the admin token like the rest.
 */
@RestController
class ConsoleController {

    /** A whole number of units, or a whole percent from 0 to 100 ({@link AllotmentTarget#parse}). */
    static final String ALLOTMENT = "[0-9]{1,12}|[0-9]{1,3}%";
    static final String ALLOTMENT_RULE = "a number of units (50) or a whole percent from 0 to 100 (10%)";

    private final InstanceReadings instance;
    private final ClusterReadings cluster;
    private final SkuSettingsPublisher settings;
    private final StockCatalog catalog;
    private final AuditMapper audit;

    ConsoleController(InstanceReadings instance, ClusterReadings cluster, SkuSettingsPublisher settings,
                      StockCatalog catalog, AuditMapper audit) {
        this.audit = audit;
        this.instance = instance;
        this.cluster = cluster;
        this.settings = settings;
        this.catalog = catalog;
    }

    /** This instance's readings (counts since it started, percentiles, health). */
    @GetMapping("/admin/console/instance")
    InstanceReading instance() {
        return instance.read();
    }

    /**
     * Every inventory instance's readings (this one's and those of the others the registry lists, read with the
     * cluster key, never with the caller's token), and the registry.
     */
    @GetMapping("/admin/console/overview")
    ClusterReadings.Overview overview() {
        return cluster.read();
    }

    /** A SKU's segment count and/or allotment; null leaves it as it is, at least one is needed. */
    record SkuSettings(@Min(value = 1, message = "must be 1 to " + SegmentCounts.MAX)
                       @Max(value = SegmentCounts.MAX, message = "must be 1 to " + SegmentCounts.MAX)
                       Integer segments,
                       @Pattern(regexp = ALLOTMENT, message = ALLOTMENT_RULE) String allotment) {
    }

    /**
     * Publishes the SKU's segment count and/or allotment in the service's dataId in Nacos, as an operator would;
     * every instance applies it live. 202 once Nacos has it; 404 for an unknown SKU; 409 {@code settings-not-live}
     * when the service reads its settings from files; 409 {@code settings-not-editable} when the dataId in Nacos is not
     * a YAML mapping with mappings on the way; 409 {@code settings-changed-meanwhile} when the dataId kept changing
     * underneath; 503 {@code nacos-unavailable}; 400 for a bad value, and then nothing is published.
     */
    @PutMapping("/admin/skus/{skuId}/settings")
    ResponseEntity<?> settings(@PathVariable @Pattern(regexp = AdminController.SKU_ID) String skuId,
                               @Valid @NotNull @RequestBody SkuSettings body, Principal admin) {
        if (body.segments() == null && body.allotment() == null) {
            return invalid("give segments, allotment or both");
        }
        if (body.allotment() != null && AllotmentTarget.parse(body.allotment()).isEmpty()) {
            return invalid("allotment: " + ALLOTMENT_RULE);
        }
        if (catalog.view(skuId).isEmpty()) {
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Problems.unknownSku(skuId));
        }
        SkuSettingsPublisher.Result result = settings.publish(skuId, body.segments(), body.allotment());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("skuId", skuId);
        answer.put("dataId", result.dataId());
        answer.put("group", result.group());
        if (body.segments() != null) {
            answer.put("segments", body.segments());
        }
        if (body.allotment() != null) {
            answer.put("allotment", body.allotment());
        }
        switch (result.outcome()) {
            case PUBLISHED:
                audit.record(AuditMapper.SKU_SETTINGS, skuId, null, null, "published to " + result.dataId() + " ("
                        + result.group() + "):" + (body.segments() == null ? "" : " segments " + body.segments())
                        + (body.allotment() == null ? "" : " allotment " + body.allotment()), admin.getName());
                return ResponseEntity.status(HttpStatus.ACCEPTED).body(answer);
            case NOT_LIVE:
                return problem(HttpStatus.CONFLICT, "settings-not-live", "Settings are not live", result, skuId);
            case NOT_EDITABLE:
                return problem(HttpStatus.CONFLICT, "settings-not-editable", "Settings not editable", result, skuId);
            case CHANGED_MEANWHILE:
                return problem(HttpStatus.CONFLICT, "settings-changed-meanwhile", "Settings changed meanwhile", result,
                        skuId);
            default:
                return problem(HttpStatus.SERVICE_UNAVAILABLE, "nacos-unavailable", "Nacos unavailable", result, skuId);
        }
    }

    private static ResponseEntity<?> invalid(String error) {
        return BadInputAdvice.invalidRequest(List.of(error));
    }

    private static ResponseEntity<?> problem(HttpStatus status, String type, String title,
                                             SkuSettingsPublisher.Result result, String skuId) {
        ProblemDetail p = ProblemDetails.of(status, type, title, result.detail());
        p.setProperty("skuId", skuId);
        p.setProperty("dataId", result.dataId());
        p.setProperty("group", result.group());
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status);
        if (status == HttpStatus.SERVICE_UNAVAILABLE) {
            answer.header(HttpHeaders.RETRY_AFTER, "5");
        }
        return answer.body(p);
    }
}
