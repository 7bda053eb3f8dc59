package dev.opcua.stack.codegen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import dev.opcua.stack.codegen.schema.SchemaData;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiles the generated id classes (they depend on nothing) and calls their reverse lookups. */
class IdsWriterSchemaIT {

    @TempDir
    static Path work;

    private static ClassLoader loader;
    private static String nodeIdsSource;

    @BeforeAll
    static void generateAndCompileTheIdClasses() throws Exception {
        SchemaData schema = SchemaData.load(SchemaLocations.requireSchemaDir());
        List<GeneratedFile> files = List.of(
                IdsWriter.writeNodeIds(schema.nodeIds()),
                IdsWriter.writeStatusCodes(schema.statusCodes()),
                IdsWriter.writeAttributeIds(schema.attributeIds()));
        nodeIdsSource = files.get(0).content();
        Path sources = work.resolve("src");
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString(), "--release", "17", "-Xlint:all", "-Werror"));
        for (GeneratedFile file : files) {
            Path path = sources.resolve(file.relativePath());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.content(), StandardCharsets.UTF_8);
            arguments.add(path.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int status = compiler.run(null, diagnostics, diagnostics, arguments.toArray(String[]::new));
        assertThat(status).as("javac of the generated id classes: %s", diagnostics.toString(StandardCharsets.UTF_8))
                .isZero();
        loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, IdsWriterSchemaIT.class.getClassLoader());
    }

    private static Object call(String className, String method, int argument) throws Exception {
        Class<?> type = Class.forName(Packages.IDS + "." + className, true, loader);
        Method lookup = type.getMethod(method, int.class);
        return lookup.invoke(null, argument);
    }

    private static int constant(String className, String field) throws Exception {
        return Class.forName(Packages.IDS + "." + className, true, loader).getField(field).getInt(null);
    }

    @Test
    void node_id_constants_are_ints_in_csv_order_and_the_lookup_finds_every_chunk() throws Exception {
        assertThat(constant("NodeIds", "ReadRequest_Encoding_DefaultBinary")).isEqualTo(631);
        assertThat(nodeIdsSource.indexOf("int Boolean = 1;")).isLessThan(nodeIdsSource.indexOf("int SByte = 2;"));
        assertThat(call("NodeIds", "name", 631)).isEqualTo("ReadRequest_Encoding_DefaultBinary");
        assertThat(call("NodeIds", "name", 1)).isEqualTo("Boolean");
        assertThat(call("NodeIds", "name", 2258)).isEqualTo("Server_ServerStatus_CurrentTime");
        assertThat(call("NodeIds", "name", 0)).isNull();
        assertThat(call("NodeIds", "name", -5)).isNull();
        assertThat(call("NodeIds", "name", Integer.MAX_VALUE)).isNull();
    }

    @Test
    void every_node_id_row_is_found_by_the_reverse_lookup() throws Exception {
        SchemaData schema = SchemaData.load(SchemaLocations.requireSchemaDir());
        Class<?> type = Class.forName(Packages.IDS + ".NodeIds", true, loader);
        Method name = type.getMethod("name", int.class);
        for (var entry : schema.nodeIds()) {
            assertThat(name.invoke(null, entry.id())).isEqualTo(entry.symbolicName());
        }
    }

    @Test
    void status_code_names_ignore_the_info_bits() throws Exception {
        assertThat(constant("StatusCodes", "BadDecodingError")).isEqualTo(0x80070000);
        assertThat(call("StatusCodes", "name", 0x80070000)).isEqualTo("BadDecodingError");
        assertThat(call("StatusCodes", "name", 0x80070480)).isEqualTo("BadDecodingError");
        assertThat(call("StatusCodes", "name", 0)).isEqualTo("Good");
        assertThat(call("StatusCodes", "name", 0x7FFE0000)).isNull();
        assertThat(Files.readString(work.resolve("src").resolve(JavaWriter.path(Packages.IDS, "StatusCodes"))))
                .contains("public static final int BadDecodingError = 0x80070000;");
    }

    @Test
    void attribute_ids_have_constants_and_names() throws Exception {
        assertThat(constant("AttributeIds", "Value")).isEqualTo(13);
        assertThat(call("AttributeIds", "name", 13)).isEqualTo("Value");
        assertThat(call("AttributeIds", "name", 999)).isNull();
    }
}
