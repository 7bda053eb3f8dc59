package dev.opcua.stack.codegen.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.schema.NodeSet;
import dev.opcua.stack.codegen.schema.NodeSetReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Namespace0WriterTest {

    private static final NodeSet SMALL = NodeSetReader.read("small.xml", new ByteArrayInputStream("""
            <UANodeSet xmlns="http://opcfoundation.org/UA/2011/03/UANodeSet.xsd">
              <UAObject NodeId="i=85" BrowseName="Objects">
                <DisplayName>Objects</DisplayName>
                <References><Reference ReferenceType="i=35" IsForward="false">i=84</Reference></References>
              </UAObject>
              <UAObject NodeId="i=84" BrowseName="Root">
                <References><Reference ReferenceType="i=35">i=85</Reference></References>
              </UAObject>
            </UANodeSet>
            """.getBytes(StandardCharsets.UTF_8)));

    @Test
    void the_header_names_format_version_and_body_length() {
        byte[] file = Namespace0Writer.render(SMALL);

        assertThat(Arrays.copyOf(file, 4)).isEqualTo("UANS".getBytes(StandardCharsets.US_ASCII));
        assertThat(file[4] | file[5] << 8).isEqualTo(Namespace0Writer.VERSION);
        int bodyLength = file[8] & 0xFF | (file[9] & 0xFF) << 8 | (file[10] & 0xFF) << 16 | (file[11] & 0xFF) << 24;
        assertThat(Namespace0Writer.content(file)).hasSize(Namespace0Writer.HEADER_LENGTH + bodyLength);
    }

    @Test
    void the_body_starts_with_the_string_table_in_order_of_first_use() {
        byte[] content = Namespace0Writer.content(Namespace0Writer.render(SMALL));

        // 2 strings: "Objects" (browse name and display name text), then "Root"; then 2 node ids.
        byte[] body = Arrays.copyOfRange(content, Namespace0Writer.HEADER_LENGTH, content.length);
        assertThat(Arrays.copyOf(body, 15)).containsExactly(2, 7, 'O', 'b', 'j', 'e', 'c', 't', 's', 4, 'R', 'o', 'o',
                't', 2);
    }

    @Test
    void writing_leaves_a_file_with_the_same_content_alone(@TempDir Path root) throws Exception {
        Path file = root.resolve(Namespace0Writer.RESOURCE_PATH);
        Files.createDirectories(file.getParent());
        byte[] otherwiseCompressed = recompress(Namespace0Writer.render(SMALL), Deflater.BEST_SPEED);
        Files.write(file, otherwiseCompressed);
        FileTime before = FileTime.fromMillis(1_000_000);
        Files.setLastModifiedTime(file, before);

        Namespace0Writer.Summary summary = Namespace0Writer.write(SMALL, root);

        assertThat(summary.written()).isFalse();
        assertThat(Files.readAllBytes(file)).isEqualTo(otherwiseCompressed);
        assertThat(Files.getLastModifiedTime(file)).isEqualTo(before);
        assertThat(summary.nodes()).isEqualTo(2);
        assertThat(summary.references()).isEqualTo(2);
    }

    @Test
    void writing_replaces_a_file_with_other_content(@TempDir Path root) throws Exception {
        Path file = root.resolve(Namespace0Writer.RESOURCE_PATH);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[] {1, 2, 3});

        Namespace0Writer.Summary summary = Namespace0Writer.write(SMALL, root);

        assertThat(summary.written()).isTrue();
        assertThat(Files.readAllBytes(file)).isEqualTo(Namespace0Writer.render(SMALL));
    }

    @Test
    void bytes_of_another_format_are_not_content() {
        assertThatThrownBy(() -> Namespace0Writer.content("not a resource".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("magic");
    }

    /** The same header and body, compressed at another level. */
    private static byte[] recompress(byte[] file, int level) throws Exception {
        byte[] content = Namespace0Writer.content(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(content, 0, Namespace0Writer.HEADER_LENGTH);
        Deflater deflater = new Deflater(level);
        try (DeflaterOutputStream zip = new DeflaterOutputStream(out, deflater)) {
            zip.write(content, Namespace0Writer.HEADER_LENGTH, content.length - Namespace0Writer.HEADER_LENGTH);
        } finally {
            deflater.end();
        }
        assertThat(out.toByteArray()).isNotEqualTo(file);
        return out.toByteArray();
    }
}
