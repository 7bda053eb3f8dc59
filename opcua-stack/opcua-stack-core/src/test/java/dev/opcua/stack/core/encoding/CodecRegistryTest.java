package dev.opcua.stack.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.StandardStructures;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The codec registry: every standard structure found by each key, each class loaded on its first lookup. */
class CodecRegistryTest {

    private static final String STRUCTURED = "dev.opcua.stack.core.types.structured.";

    @Test
    void the_table_of_standard_structures_agrees_with_each_codec() {
        for (int i = 0; i < StandardStructures.size(); i++) {
            UaCodec<?> codec = StandardStructures.codec(i);
            assertThat(codec.encodingId()).as("encoding id of %s", codec.type())
                    .isEqualTo(NodeId.ns0(StandardStructures.encodingId(i)));
            assertThat(codec.dataTypeId()).as("DataType id of %s", codec.type())
                    .isEqualTo(NodeId.ns0(StandardStructures.dataTypeId(i)));
            assertThat(codec.type().getName()).isEqualTo(StandardStructures.typeName(i));
        }
        assertThat(StandardStructures.codecs()).hasSize(StandardStructures.size())
                .doesNotHaveDuplicates();
    }

    @Test
    void a_standard_codec_is_the_same_by_encoding_id_data_type_id_and_type() {
        CodecRegistry registry = CodecRegistry.standard();

        UaCodec<?> byEncoding = registry.codecForEncodingId(NodeId.ns0(NodeIds.ReadValueId_Encoding_DefaultBinary));
        assertThat(byEncoding).isSameAs(ReadValueId.CODEC);
        assertThat(registry.codecForEncodingId(NodeId.ns0(NodeIds.ReadValueId_Encoding_DefaultBinary)))
                .isSameAs(byEncoding);
        assertThat(registry.codecForDataTypeId(NodeId.ns0(NodeIds.ReadValueId))).isSameAs(byEncoding);
        assertThat(registry.codecForType(ReadValueId.class)).isSameAs(byEncoding);
        assertThat(registry.codecs()).hasSize(StandardStructures.size()).contains(WriteValue.CODEC);
    }

    @Test
    void unknown_keys_find_nothing() {
        CodecRegistry registry = CodecRegistry.standard();

        assertThat(registry.codecForEncodingId(NodeId.ns0(NodeIds.ReadValueId))).isNull(); // a DataType, no encoding
        assertThat(registry.codecForEncodingId(NodeId.ns0(1 << 20))).isNull();
        assertThat(registry.codecForEncodingId(NodeId.numeric(2, NodeIds.ReadValueId_Encoding_DefaultBinary)))
                .isNull();
        assertThat(registry.codecForDataTypeId(NodeId.ns0(NodeIds.ReadValueId_Encoding_DefaultBinary))).isNull();
        assertThat(registry.codecForType(String.class)).isNull();
    }

    @Test
    void a_builder_from_the_standard_registry_keeps_it_and_adds_a_codec_that_replaces_one_by_encoding_id() {
        UaCodec<ReadValueId> replacement = new DelegatingCodec<>(ReadValueId.CODEC);
        CodecRegistry registry = CodecRegistry.standard().toBuilder().add(replacement).build();

        assertThat(registry.codecForEncodingId(NodeId.ns0(NodeIds.ReadValueId_Encoding_DefaultBinary)))
                .isSameAs(replacement);
        assertThat(registry.codecForType(ReadValueId.class)).isSameAs(replacement);
        assertThat(registry.codecForEncodingId(NodeId.ns0(NodeIds.WriteValue_Encoding_DefaultBinary)))
                .isSameAs(WriteValue.CODEC);
        assertThat(registry.codecs()).hasSize(StandardStructures.size());
    }

    @Test
    void the_standard_registry_loads_a_structure_class_only_when_its_codec_is_looked_up() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            urls.add(new File(entry).toURI().toURL());
        }
        try (Isolated loader = new Isolated(urls.toArray(URL[]::new))) {
            Class<?> registryType = loader.loadClass(CodecRegistry.class.getName());
            Object registry = registryType.getMethod("standard").invoke(null);
            assertThat(loader.loaded(STRUCTURED + "ReadValueId")).isFalse();
            assertThat(loader.loaded(STRUCTURED + "WriteValue")).isFalse();

            Class<?> nodeId = loader.loadClass(NodeId.class.getName());
            Method ns0 = nodeId.getMethod("ns0", int.class);
            Object codec = registryType.getMethod("codecForEncodingId", nodeId)
                    .invoke(registry, ns0.invoke(null, NodeIds.ReadValueId_Encoding_DefaultBinary));

            assertThat(codec).isNotNull();
            assertThat(loader.loaded(STRUCTURED + "ReadValueId")).isTrue();
            assertThat(loader.loaded(STRUCTURED + "WriteValue")).isFalse();
        }
    }

    /** Loads the project's classes itself (not from its parent), and tells which it has loaded. */
    private static final class Isolated extends URLClassLoader {

        Isolated(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    /** Another codec object for the same structure, to tell it apart from the standard one. */
    private record DelegatingCodec<T>(UaCodec<T> delegate) implements UaCodec<T> {

        @Override
        public Class<T> type() {
            return delegate.type();
        }

        @Override
        public NodeId encodingId() {
            return delegate.encodingId();
        }

        @Override
        public NodeId dataTypeId() {
            return delegate.dataTypeId();
        }

        @Override
        public void encode(UaWriter encoder, T value) {
            delegate.encode(encoder, value);
        }

        @Override
        public T decode(UaReader decoder) {
            return delegate.decode(decoder);
        }
    }
}
