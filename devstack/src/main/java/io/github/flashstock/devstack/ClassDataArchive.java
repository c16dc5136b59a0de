package io.github.flashstock.devstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A class-data archive for one kind of JVM (one class path), so that it starts quickly. While there is none, a
 * launch writes one at its exit ({@code -XX:ArchiveClassesAtExit}) to a part file of its own; once that JVM has
 * ended by itself after SIGTERM, {@link #ended} puts the part in place, and later launches map it
 * ({@code -XX:SharedArchiveFile}). A JVM killed while writing leaves only a part nobody reads; a JVM given an
 * archive that does not match its class path says so in its log and starts without it. Used for the devstack's
 * Java servers and for the services the end-to-end tests and drills start.
 */
public final class ClassDataArchive {

    private static final Object LOCK = new Object();

    private final Path archive;

    public ClassDataArchive(Path archive) {
        this.archive = archive;
    }

    /**
     * The JVM options for one launch; {@code launchKey} tells this launch's part file apart from those of other
     * launches that may run at the same time.
     */
    public List<String> options(String launchKey) {
        if (Files.isRegularFile(archive)) {
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        try {
            Files.createDirectories(archive.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // -Xlog:cds=off: at exit the JVM would list every class it leaves out of the archive (hundreds of lines)
        return List.of("-XX:ArchiveClassesAtExit=" + part(launchKey), "-Xlog:cds=off");
    }

    /**
     * The launch is over: its archive is published if the JVM ended gracefully and no other launch published one
     * first; otherwise its part file goes. Nothing to do for a launch that mapped an archive.
     */
    public void ended(String launchKey, boolean graceful) {
        Path part = part(launchKey);
        try {
            synchronized (LOCK) {
                if (!Files.exists(part)) {
                    return;
                }
                if (graceful && Files.size(part) > 0 && !Files.exists(archive)) {
                    Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.deleteIfExists(part);
                }
            }
        } catch (IOException e) {
            // no archive then: a later launch writes one; a start without it is slower, not wrong
        }
    }

    private Path part(String launchKey) {
        return archive.resolveSibling(archive.getFileName() + "." + launchKey + ".part");
    }
}
