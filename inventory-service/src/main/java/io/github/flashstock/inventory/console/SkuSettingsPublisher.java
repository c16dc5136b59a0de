package io.github.flashstock.inventory.console;

import com.alibaba.cloud.nacos.NacosConfigManager;
import io.github.flashstock.inventory.SkuSettingsDataId;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.exception.NacosException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Changes a SKU's segment count or allotment the way an operator does: in Nacos, in the per-SKU settings' dataId
 * ({@link SkuSettingsDataId}, {@code <spring.application.name>-skus.yaml}, the configured group; the only dataId the
 * service's Nacos user needs to write), which every instance applies live (the segment
 * listener, the allotments' refresh). Under a MySQL named lock that every instance takes ({@link SettingsLockMapper}),
 * the dataId is read, changed in one line ({@link DataIdEdit}), published only if nobody published in between
 * (Nacos's compare-and-set on the content's MD5, retried a few times), and read back until Nacos serves it.
 * A service that reads its settings from files has nothing live to change: {@link Outcome#NOT_LIVE}.
 */
@Component
public class SkuSettingsPublisher {

    /** Tries at the compare-and-set, a short random pause between two; then CHANGED_MEANWHILE. */
    private static final int ATTEMPTS = 10;
    private static final long READ_TIMEOUT_MILLIS = 3000;
    private static final int LOCK_WAIT_SECONDS = 10;
    private static final long SERVED_WITHIN_MILLIS = 3000;

    private final ObjectProvider<NacosConfigManager> nacos;
    private final SettingsLockMapper locks;
    /** The lock's two statements on one connection. */
    private final TransactionTemplate transactions;
    private final boolean live;
    private final String dataId;
    private final String group;

    SkuSettingsPublisher(ObjectProvider<NacosConfigManager> nacos, Environment environment, SettingsLockMapper locks,
                         PlatformTransactionManager transactions) {
        this.nacos = nacos;
        this.locks = locks;
        this.transactions = new TransactionTemplate(transactions);
        this.live = environment.getProperty("spring.cloud.nacos.config.enabled", Boolean.class, false);
        this.dataId = SkuSettingsDataId.of(environment);
        this.group = environment.getProperty("spring.cloud.nacos.config.group", "DEFAULT_GROUP");
    }

    public enum Outcome { PUBLISHED, NOT_LIVE, NOT_EDITABLE, CHANGED_MEANWHILE, NACOS_UNAVAILABLE }

    /** What happened, and where: the dataId and group published to (or that would have been). */
    public record Result(Outcome outcome, String dataId, String group, String detail) {
    }

    /**
     * Sets the SKU's segment count and/or allotment (null: left as it is) in the dataId. The values must be valid
     * already (the caller checks them as the service's readers do).
     */
    public Result publish(String skuId, Integer segments, String allotment) {
        NacosConfigManager manager = live ? nacos.getIfAvailable() : null;
        if (manager == null) {
            return new Result(Outcome.NOT_LIVE, dataId, group, "this instance reads its settings from files, not"
                    + " Nacos: change inventory.segments.skus or inventory.mysql-store.allotment.skus there");
        }
        ConfigService config = manager.getConfigService();
        String lock = "flashstock:settings:" + group + ":" + dataId;
        return transactions.execute(status -> {
            Integer taken = locks.lock(lock, LOCK_WAIT_SECONDS);
            if (taken == null || taken != 1) {
                return new Result(Outcome.CHANGED_MEANWHILE, dataId, group, "another change of the dataId held it for"
                        + " " + LOCK_WAIT_SECONDS + " s; nothing of this change was published");
            }
            try {
                return publishLocked(config, skuId, segments, allotment);
            } finally {
                locks.unlock(lock);
            }
        });
    }

    /**
     * Under the lock: read, change, publish with compare-and-set (which still guards against an operator publishing
     * by hand meanwhile), then wait until Nacos serves what was published, so the next holder of the lock reads it.
     */
    private Result publishLocked(ConfigService config, String skuId, Integer segments, String allotment) {
        try {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                String current = config.getConfig(dataId, group, READ_TIMEOUT_MILLIS);
                String changed;
                try {
                    changed = current == null ? "" : current;
                    if (segments != null) {
                        changed = DataIdEdit.set(changed, DataIdEdit.SEGMENTS, skuId, Integer.toString(segments));
                    }
                    if (allotment != null) {
                        changed = DataIdEdit.set(changed, DataIdEdit.ALLOTMENTS, skuId, allotment);
                    }
                } catch (IllegalArgumentException | YAMLException e) {
                    return new Result(Outcome.NOT_EDITABLE, dataId, group, "the dataId cannot be changed line by line: "
                            + e.getMessage() + "; nothing was published");
                }
                boolean published = current == null
                        ? config.publishConfig(dataId, group, changed, "yaml")
                        : config.publishConfigCas(dataId, group, changed, md5(current), "yaml");
                if (published) {
                    awaitServed(config, md5(changed));
                    return new Result(Outcome.PUBLISHED, dataId, group, "published; every instance applies it live");
                }
                Thread.sleep(ThreadLocalRandom.current().nextLong(10, 60));
            }
            return new Result(Outcome.CHANGED_MEANWHILE, dataId, group, "the dataId changed while this change was"
                    + " being published, " + ATTEMPTS + " times in a row; nothing of this change was published");
        } catch (NacosException e) {
            return new Result(Outcome.NACOS_UNAVAILABLE, dataId, group, "Nacos: " + e.getErrMsg());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(Outcome.CHANGED_MEANWHILE, dataId, group, "interrupted; the change was not published");
        }
    }

    /** Waits (at most {@link #SERVED_WITHIN_MILLIS}) until Nacos answers reads of the dataId with the published content. */
    private void awaitServed(ConfigService config, String publishedMd5) throws NacosException, InterruptedException {
        long deadline = System.nanoTime() + SERVED_WITHIN_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            String served = config.getConfig(dataId, group, READ_TIMEOUT_MILLIS);
            if (served != null && md5(served).equals(publishedMd5)) {
                return;
            }
            Thread.sleep(20);
        }
    }

    private static String md5(String content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                    .digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
