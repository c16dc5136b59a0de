package io.github.flashstock.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When an archive is written, published, dropped and used (the JVM's part is played by writing the part file). */
class ClassDataArchiveTest {

    @TempDir
    Path dir;

    @Test
    void aGracefulEndPublishesTheArchiveLaterLaunchesMapAndAKilledOneLeavesNothing() throws IOException {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("cds/app.jsa"));

        List<String> first = archive.options("a");
        List<String> second = archive.options("b");
        assertThat(first.get(0)).startsWith("-XX:ArchiveClassesAtExit=");
        assertThat(second.get(0)).isNotEqualTo(first.get(0));
        // both JVMs write their parts at exit; the first was killed while writing, the second ended gracefully
        Path partA = Path.of(first.get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Path partB = Path.of(second.get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(partA, "torn");
        Files.writeString(partB, "whole");
        archive.ended("a", false);
        archive.ended("b", true);

        assertThat(partA).doesNotExist();
        assertThat(partB).doesNotExist();
        assertThat(dir.resolve("cds/app.jsa")).hasContent("whole");
        assertThat(archive.options("c")).containsExactly("-XX:SharedArchiveFile=" + dir.resolve("cds/app.jsa"));
        // a launch that mapped the archive has nothing to publish, and the archive stays
        archive.ended("c", true);
        assertThat(dir.resolve("cds/app.jsa")).hasContent("whole");
    }

    @Test
    void aSecondGracefulWriterDoesNotReplaceThePublishedArchive() throws IOException {
        ClassDataArchive archive = new ClassDataArchive(dir.resolve("app.jsa"));
        Path partA = Path.of(archive.options("a").get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Path partB = Path.of(archive.options("b").get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(partA, "first");
        Files.writeString(partB, "second");

        archive.ended("a", true);
        archive.ended("b", true);

        assertThat(dir.resolve("app.jsa")).hasContent("first");
        assertThat(partB).doesNotExist();
    }
}
