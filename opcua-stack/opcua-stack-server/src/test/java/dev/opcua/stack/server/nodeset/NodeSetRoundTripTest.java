package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.generic.StructureLayout;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.models.StandardModels;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the exporter writes, the importer reads back to the same nodes: every attribute, reference and
 * value compared node for node, for the built-in DI and Machinery models, for a namespace an
 * application builds in code (variables of many types, methods, objects of imported types), and for a
 * model with structures, unions and optional fields of its own.
 */
class NodeSetRoundTripTest {

    private static final String PLANT = "urn:test:round-trip:plant";
    private static final String STRUCTURES = "urn:test:structures";

    @Test
    void di_and_machinery_exported_and_imported_again_give_the_same_nodes() throws Exception {
        byte[] di;
        byte[] machinery;
        Map<String, String> diNodes;
        Map<String, String> machineryNodes;
        try (OpcUaServer original = NodeSetFixtures.serverWithBuiltInModels()) {
            di = NodeSetFixtures.export(original, NodeSetFixtures.DI);
            machinery = NodeSetFixtures.export(original, NodeSetFixtures.MACHINERY);
            diNodes = NamespaceSnapshot.of(original, NodeSetFixtures.DI);
            machineryNodes = NamespaceSnapshot.of(original, NodeSetFixtures.MACHINERY);
        }

        try (OpcUaServer imported = NodeSetFixtures.start(b -> b.nodeSet(xml("DI export", di))
                .nodeSet(xml("Machinery export", machinery)))) {
            assertThat(NamespaceSnapshot.differences(diNodes, NamespaceSnapshot.of(imported, NodeSetFixtures.DI)))
                    .isEmpty();
            assertThat(NamespaceSnapshot.differences(machineryNodes,
                    NamespaceSnapshot.of(imported, NodeSetFixtures.MACHINERY))).isEmpty();
            assertThat(diNodes).hasSizeGreaterThan(400);
            assertThat(machineryNodes).hasSizeGreaterThan(140);
            ModelRegistry models = imported.models();
            assertThat(models.model(NodeSetFixtures.DI).version()).isEqualTo("1.04.0");
            assertThat(models.requiredModels(NodeSetFixtures.MACHINERY)).extracting(m -> m.uri())
                    .contains("http://opcfoundation.org/UA/", NodeSetFixtures.DI);
            assertThat(models.layouts()).isNotEmpty();
        }
    }

    @Test
    void an_application_namespace_exported_and_imported_again_gives_the_same_nodes() throws Exception {
        byte[] plant;
        Map<String, String> plantNodes;
        try (OpcUaServer original = NodeSetFixtures.start(b -> b.nodeSet(StandardModels.di())
                .nodeSet(StandardModels.machinery())
                .nodeManager(plant()))) {
            int ns = original.namespaces().indexOf(PLANT);
            int machinery = original.namespaces().indexOf(NodeSetFixtures.MACHINERY);
            int di = original.namespaces().indexOf(NodeSetFixtures.DI);
            original.instances().instantiate(NodeId.numeric(machinery, 1012), NodeId.string(ns, "Line1.Identification"),
                    QualifiedName.of(di, "Identification"), NodeId.string(ns, "Line1"), NodeId.ns0(NodeIds.HasAddIn),
                    Set.of("Model"));
            plant = NodeSetFixtures.export(original, PLANT);
            plantNodes = NamespaceSnapshot.of(original, PLANT);
        }

        try (OpcUaServer imported = NodeSetFixtures.start(b -> b.nodeSet(StandardModels.di())
                .nodeSet(StandardModels.machinery())
                .nodeSet(xml("plant export", plant)))) {
            assertThat(NamespaceSnapshot.differences(plantNodes, NamespaceSnapshot.of(imported, PLANT))).isEmpty();
            assertThat(plantNodes).containsKeys("nsu=" + PLANT + ";s=Line1.Identification.Manufacturer",
                    "nsu=" + PLANT + ";s=Line1.Start.InputArguments");
            assertThat(imported.models().requiredModels(PLANT)).extracting(m -> m.uri())
                    .containsExactly("http://opcfoundation.org/UA/", NodeSetFixtures.DI, NodeSetFixtures.MACHINERY);
        }
    }

    @Test
    void structures_unions_and_optional_fields_of_a_model_round_trip_with_their_definitions() throws Exception {
        byte[] structures;
        Map<String, String> nodes;
        try (OpcUaServer original = NodeSetFixtures.start(b -> b.nodeSet(NodeSetImporterTest.class.getResource(
                "Test.Structures.NodeSet2.xml")))) {
            structures = NodeSetFixtures.export(original, STRUCTURES);
            nodes = NamespaceSnapshot.of(original, STRUCTURES);
        }

        try (OpcUaServer imported = NodeSetFixtures.start(b -> b.nodeSet(xml("structures export", structures)))) {
            assertThat(NamespaceSnapshot.differences(nodes, NamespaceSnapshot.of(imported, STRUCTURES))).isEmpty();
            assertThat(imported.models().layouts()).extracting(StructureLayout::name)
                    .containsExactlyInAnyOrder("Limits", "ValveData", "Setpoint");
            assertThat(nodes.values()).anyMatch(n -> n.contains("ValveData{") && n.contains("Note=checked"))
                    .anyMatch(n -> n.contains("Setpoint{Position=42}"));
        }
    }

    /** A line with variables of many built-in types, a structure of Machinery's and a method. */
    private static InMemoryNodeManager plant() {
        Argument speed = new Argument("Speed", NodeId.ns0(NodeIds.Double), -1, null, LocalizedText.of("en", "m/s"));
        Argument accepted = new Argument("Accepted", NodeId.ns0(NodeIds.Boolean), -1, null, LocalizedText.NULL);
        return InMemoryNodeManager.builder(PLANT)
                .folder("Line1", o -> o.description("The bottling line"))
                .variable("Line1.Running", BuiltinType.Boolean, v -> v.value(Variant.ofBoolean(true)).writable())
                .variable("Line1.Count", BuiltinType.UInt64, v -> v.value(Variant.ofUInt64(-1L)))
                .variable("Line1.Temperatures", BuiltinType.Double, v -> v.valueRank(1).arrayDimensions(3)
                        .value(Variant.ofArray(BuiltinType.Double,
                                new double[] {20.5, Double.NaN, Double.NEGATIVE_INFINITY})))
                .variable("Line1.Ratio", BuiltinType.Float,
                        v -> v.value(Variant.ofFloat(0.1f)).minimumSamplingInterval(250))
                .variable("Line1.Bytes", BuiltinType.Byte, v -> v.valueRank(1)
                        .value(Variant.ofArray(BuiltinType.Byte, new short[] {0, 255})))
                .variable("Line1.Offset", BuiltinType.Int16, v -> v.value(Variant.ofInt16((short) -7)))
                .variable("Line1.Label", BuiltinType.String, v -> v.value(Variant.ofString("  two\r\nlines & <tags> ")))
                .variable("Line1.Started", BuiltinType.DateTime,
                        v -> v.value(Variant.of(DateTime.ofInstant(Instant.parse("2024-05-01T12:30:00.1234567Z")))))
                .variable("Line1.Batch", BuiltinType.Guid,
                        v -> v.value(Variant.of(UUID.fromString("09087e75-8e5e-499b-954f-f2a9603db28a"))))
                .variable("Line1.Blob", BuiltinType.ByteString,
                        v -> v.value(Variant.of(ByteString.of(new byte[] {1, 2, 3}))))
                .variable("Line1.Recipe", BuiltinType.XmlElement,
                        v -> v.value(Variant.of(XmlElement.of("<Recipe kind=\"soda\"><Step>fill</Step></Recipe>"))))
                .variable("Line1.Station", BuiltinType.NodeId, v -> v.value(Variant.of(NodeId.string(2, "Line1"))))
                .variable("Line1.Next", BuiltinType.ExpandedNodeId,
                        v -> v.value(Variant.of(ExpandedNodeId.of(NodeId.numeric(2, 5), "urn:elsewhere", 0))))
                .variable("Line1.Quality", BuiltinType.StatusCode,
                        v -> v.value(Variant.of(StatusCode.ofUnsigned(0x80350000L))))
                .variable("Line1.Product", BuiltinType.QualifiedName,
                        v -> v.value(Variant.of(QualifiedName.of(2, "Cola"))))
                .variable("Line1.States", BuiltinType.LocalizedText, v -> v.valueRank(1).value(Variant.ofArray(
                        BuiltinType.LocalizedText,
                        new LocalizedText[] {LocalizedText.of("en", "On"), LocalizedText.of("Off")})))
                .variable("Line1.Mixed", BuiltinType.Variant, v -> v.valueRank(1).value(Variant.ofArray(
                        BuiltinType.Variant,
                        new Variant[] {Variant.ofInt32(1), Variant.ofString("two"), Variant.NULL})))
                .variable("Line1.Limits", NodeId.ns0(NodeIds.Range), v -> v.value(Variant.of(new Range(-1.5, 100))))
                .method("Line1.Start", new Argument[] {speed}, new Argument[] {accepted},
                        (context, inputs) -> new Variant[] {Variant.ofBoolean(true)})
                .build();
    }

    private static NodeSetSource xml(String name, byte[] document) {
        return new NodeSetSource(name, () -> new ByteArrayInputStream(document));
    }
}
