package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The import on its own: ids, references, values, and the errors that stop it, naming file, line and node. */
class NodeSetImporterTest {

    private static NodeStore ns0;
    private NamespaceTable namespaces;
    private ModelRegistry registry;
    private final List<NodeStore> imported = new ArrayList<>();

    @BeforeAll
    static void loadNamespace0() {
        ns0 = Namespace0Loader.load();
    }

    @BeforeEach
    void newServer() {
        namespaces = new NamespaceTable("urn:test:importer");
        registry = new ModelRegistry(ns0);
        imported.clear();
    }

    private ImportedModel load(NodeSetSource source) {
        ImportedModel model = NodeSetImporter.importNodeSet(source, namespaces, this::find, registry);
        imported.add(model.store());
        return model;
    }

    private UaNode find(NodeId id) {
        if (id.namespaceIndex() == 0) {
            return ns0.get(id);
        }
        for (NodeStore store : imported) {
            UaNode node = store.get(id);
            if (node != null) {
                return node;
            }
        }
        return null;
    }

    static NodeSetSource xml(String name, String body) {
        String document = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                + "<UANodeSet xmlns=\"http://opcfoundation.org/UA/2011/03/UANodeSet.xsd\">\n" + body + "</UANodeSet>\n";
        return new NodeSetSource(name, () -> new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)));
    }

    static String model(String uri, String version, String requirements) {
        return "<NamespaceUris><Uri>" + uri + "</Uri></NamespaceUris>\n<Models><Model ModelUri=\"" + uri
                + "\" Version=\"" + version + "\" PublicationDate=\"2024-01-01T00:00:00Z\">" + requirements
                + "</Model></Models>\n";
    }

    @Test
    void a_missing_required_model_stops_the_import_naming_both_models() {
        assertThatThrownBy(() -> load(NodeSetSource.of(NodeSetFixtures.machinery())))
                .isInstanceOf(RequiredModelException.class)
                .hasMessageContaining("model " + NodeSetFixtures.MACHINERY + " requires model " + NodeSetFixtures.DI)
                .hasMessageContaining("not loaded")
                .satisfies(e -> {
                    assertThat(((RequiredModelException) e).model()).isEqualTo(NodeSetFixtures.MACHINERY);
                    assertThat(((RequiredModelException) e).requiredModel()).isEqualTo(NodeSetFixtures.DI);
                });
    }

    @Test
    void an_older_required_model_stops_the_import_naming_both_versions() {
        load(NodeSetSource.of(NodeSetFixtures.di()));
        NodeSetSource needsNewerDi = xml("needs-di-9.xml", model("urn:test:a", "1.0",
                "<RequiredModel ModelUri=\"" + NodeSetFixtures.DI + "\" Version=\"9.0.1\"/>"));
        assertThatThrownBy(() -> load(needsNewerDi))
                .isInstanceOf(RequiredModelException.class)
                .hasMessageContaining("needs-di-9.xml: model urn:test:a requires model " + NodeSetFixtures.DI
                        + " version 9.0.1")
                .hasMessageContaining("older: " + NodeSetFixtures.DI + " version 1.04.0");
        NodeSetSource needsNewerUa = xml("needs-ua-2.xml", model("urn:test:b", "1.0",
                "<RequiredModel ModelUri=\"http://opcfoundation.org/UA/\" Version=\"2.00\"/>"));
        assertThatThrownBy(() -> load(needsNewerUa)).isInstanceOf(RequiredModelException.class)
                .hasMessageContaining("requires model http://opcfoundation.org/UA/ version 2.00");
    }

    @Test
    void versions_compare_by_number_and_dates_decide_without_versions() {
        assertThat(ModelRegistry.compareVersions("1.04.0", "1.05.01")).isNegative();
        assertThat(ModelRegistry.compareVersions("1.10", "1.9")).isPositive();
        assertThat(ModelRegistry.compareVersions("1.04", "1.04.0")).isZero();
        assertThat(ModelRegistry.isOlder(new ImportedModel.ModelVersion("u", null, "2020-01-01T00:00:00Z"),
                new ImportedModel.ModelVersion("u", null, "2021-01-01T00:00:00Z"))).isTrue();
    }

    @Test
    void an_unknown_alias_names_file_line_and_node() {
        NodeSetSource bad = xml("bad-alias.xml", model("urn:test:c", "1.0", "")
                + "<UAVariable NodeId=\"ns=1;i=7\" BrowseName=\"1:Speed\" DataType=\"NoSuchAlias\"/>\n");
        assertThatThrownBy(() -> load(bad)).isInstanceOf(NodeSetException.class)
                .hasMessage("bad-alias.xml:5: node ns=1;i=7: 'NoSuchAlias' is neither an alias nor a NodeId");
    }

    @Test
    void a_node_outside_the_models_namespaces_and_malformed_xml_are_refused() {
        NodeSetSource foreign = xml("foreign.xml", model("urn:test:d", "1.0", "")
                + "<UAObject NodeId=\"i=99999\" BrowseName=\"X\"/>\n");
        assertThatThrownBy(() -> load(foreign)).hasMessageContaining("foreign.xml:5: node i=99999: is in namespace "
                + "http://opcfoundation.org/UA/, which none of the file's models defines");
        NodeSetSource malformed = xml("malformed.xml", model("urn:test:e", "1.0", "") + "<UAObject NodeId=\"ns=1;i=1\"");
        assertThatThrownBy(() -> load(malformed)).isInstanceOf(NodeSetException.class)
                .hasMessageStartingWith("malformed.xml:").hasMessageContaining("malformed XML");
        NodeSetSource twice = xml("twice.xml", model("urn:test:f", "1.0", "")
                + "<UAObject NodeId=\"ns=1;i=1\" BrowseName=\"1:A\"/>\n<UAObject NodeId=\"ns=1;i=1\" BrowseName=\"1:B\"/>\n");
        assertThatThrownBy(() -> load(twice)).hasMessageContaining("twice.xml:6: node ns=1;i=1: is defined twice");
    }

    @Test
    void ids_are_remapped_references_held_both_ways_and_values_converted() {
        namespaces.register("urn:test:taken-first"); // so the file's ns=1 is not the server's index 3 by chance
        ImportedModel model = load(xml("small.xml", "<NamespaceUris><Uri>urn:test:g</Uri></NamespaceUris>\n"
                + "<Models><Model ModelUri=\"urn:test:g\" Version=\"1.0\"/></Models>\n"
                + "<Aliases><Alias Alias=\"Organizes\">i=35</Alias><Alias Alias=\"Int32\">i=6</Alias></Aliases>\n"
                + "<UAObject NodeId=\"ns=1;i=1\" BrowseName=\"1:Line\"><DisplayName>Line</DisplayName><References>"
                + "<Reference ReferenceType=\"Organizes\" IsForward=\"false\">i=85</Reference>"
                + "<Reference ReferenceType=\"i=47\">ns=1;s=Speeds</Reference></References></UAObject>\n"
                + "<UAVariable NodeId=\"ns=1;s=Speeds\" BrowseName=\"1:Speeds\" DataType=\"Int32\" ValueRank=\"1\""
                + " ArrayDimensions=\"3\" AccessLevel=\"3\"><Value><ListOfInt32 xmlns=\"http://opcfoundation.org/UA/2008"
                + "/02/Types.xsd\"><Int32>1</Int32><Int32>-2</Int32><Int32>3</Int32></ListOfInt32></Value></UAVariable>\n"
                + "<UAVariable NodeId=\"ns=1;i=3\" BrowseName=\"1:Name\"><Value><QualifiedName xmlns=\"http://opcfoundation"
                + ".org/UA/2008/02/Types.xsd\"><NamespaceIndex>1</NamespaceIndex><Name>Q</Name></QualifiedName></Value>"
                + "</UAVariable>\n"));
        int ns = namespaces.indexOf("urn:test:g");
        assertThat(ns).isEqualTo(3);
        assertThat(model.namespaceUris()).containsExactly("urn:test:g");
        UaNode line = model.store().get(NodeId.numeric(ns, 1));
        assertThat(line.browseName()).isEqualTo(QualifiedName.of(ns, "Line"));
        assertThat(line.references()).contains(UaReference.inverse(NodeId.ns0(NodeIds.Organizes),
                NodeId.ns0(NodeIds.ObjectsFolder)), UaReference.forward(NodeId.ns0(NodeIds.HasComponent),
                NodeId.string(ns, "Speeds")));
        VariableNode speeds = (VariableNode) model.store().get(NodeId.string(ns, "Speeds"));
        assertThat(speeds.references()).containsExactly(UaReference.inverse(NodeId.ns0(NodeIds.HasComponent),
                NodeId.numeric(ns, 1)));
        assertThat(speeds.value().value()).isEqualTo(Variant.ofArray(
                dev.opcua.stack.core.types.builtin.BuiltinType.Int32, new int[] {1, -2, 3}));
        assertThat(speeds.attribute(AttributeIds.ArrayDimensions).value()).isEqualTo(new long[] {3});
        assertThat(speeds.accessLevel()).isEqualTo((short) 3);
        VariableNode name = (VariableNode) model.store().get(NodeId.numeric(ns, 3));
        assertThat(name.value().value().value()).isEqualTo(QualifiedName.of(ns, "Q"));
        assertThat(registry.model("urn:test:g").version()).isEqualTo("1.0");
    }

    @Test
    void structures_defined_in_the_file_get_definitions_layouts_and_generic_values() {
        ImportedModel model = load(NodeSetSource.of(NodeSetImporterTest.class.getResource("Test.Structures.NodeSet2.xml")));
        int ns = namespaces.indexOf("urn:test:structures");
        assertThat(model.layouts()).extracting(l -> l.name()).containsExactlyInAnyOrder("Limits", "ValveData", "Setpoint");
        dev.opcua.stack.core.encoding.generic.StructureLayout valveLayout = registry.layoutOfType(NodeId.numeric(ns, 3003));
        assertThat(valveLayout.kind()).isEqualTo(dev.opcua.stack.core.types.enumerated.StructureType.StructureWithOptionalFields);
        assertThat(valveLayout.binaryEncodingId()).isEqualTo(NodeId.numeric(ns, 5003));
        assertThat(valveLayout.fields().get(1).encoding())
                .isEqualTo(new dev.opcua.stack.core.encoding.generic.FieldEncoding.Enumeration(NodeId.numeric(ns, 3001)));

        VariableNode valve = (VariableNode) model.store().get(NodeId.numeric(ns, 6001));
        dev.opcua.stack.core.encoding.generic.GenericStructure value =
                ((dev.opcua.stack.core.types.builtin.ExtensionObject) valve.value().value().value())
                        .decoded(dev.opcua.stack.core.encoding.generic.GenericStructure.class);
        assertThat(value.get("Name")).isEqualTo("V1");
        assertThat(value.get("State")).isEqualTo(1);
        assertThat(((dev.opcua.stack.core.encoding.generic.GenericStructure) value.get("Limits")).get("High")).isEqualTo(9.5);
        assertThat(value.get("Readings")).isEqualTo(new double[] {1.5, 2.5});
        assertThat(value.get("Note")).isEqualTo("checked");
        assertThat(value.get("History")).isNull();

        VariableNode setpoint = (VariableNode) model.store().get(NodeId.numeric(ns, 6002));
        dev.opcua.stack.core.encoding.generic.GenericStructure union =
                ((dev.opcua.stack.core.types.builtin.ExtensionObject) setpoint.value().value().value())
                        .decoded(dev.opcua.stack.core.encoding.generic.GenericStructure.class);
        assertThat(union.unionIndex()).isEqualTo(1);
        assertThat(union.get("Position")).isEqualTo(42);

        UaNode state = model.store().get(NodeId.numeric(ns, 3001));
        dev.opcua.stack.core.types.structured.EnumDefinition enumDefinition =
                ((dev.opcua.stack.core.types.builtin.ExtensionObject) state.attribute(AttributeIds.DataTypeDefinition)
                        .value()).decoded(dev.opcua.stack.core.types.structured.EnumDefinition.class);
        assertThat(enumDefinition.fields()).extracting(f -> f.name()).containsExactly("Closed", "Open", "Fault");
        // the binary encoding object holds the inverse HasEncoding the file gave only from the DataType
        assertThat(model.store().get(NodeId.numeric(ns, 5003)).references()).contains(UaReference.inverse(
                NodeId.ns0(NodeIds.HasEncoding), NodeId.numeric(ns, 3003)));
    }

    @Test
    void a_value_that_cannot_be_converted_leaves_its_node_without_a_value() {
        ImportedModel model = load(xml("values.xml", model("urn:test:h", "1.0", "")
                + "<UAVariable NodeId=\"ns=1;i=1\" BrowseName=\"1:Bad\" DataType=\"i=6\"><Value>"
                + "<Int32 xmlns=\"http://opcfoundation.org/UA/2008/02/Types.xsd\">twelve</Int32></Value></UAVariable>\n"
                + "<UAVariable NodeId=\"ns=1;i=2\" BrowseName=\"1:Grid\" DataType=\"i=6\" ValueRank=\"2\"><Value>"
                + "<Matrix xmlns=\"http://opcfoundation.org/UA/2008/02/Types.xsd\"/></Value></UAVariable>\n"
                + "<UAVariable NodeId=\"ns=1;i=3\" BrowseName=\"1:Good\" DataType=\"i=6\"><Value>"
                + "<Int32 xmlns=\"http://opcfoundation.org/UA/2008/02/Types.xsd\">12</Int32></Value></UAVariable>\n"));
        int ns = namespaces.indexOf("urn:test:h");
        assertThat(((VariableNode) model.store().get(NodeId.numeric(ns, 1))).value().value().isNull()).isTrue();
        assertThat(((VariableNode) model.store().get(NodeId.numeric(ns, 2))).value().value().isNull()).isTrue();
        assertThat(((VariableNode) model.store().get(NodeId.numeric(ns, 3))).value().value()).isEqualTo(Variant.ofInt32(12));
    }
}
