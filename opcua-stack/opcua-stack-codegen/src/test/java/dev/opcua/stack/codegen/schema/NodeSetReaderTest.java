package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.EUInformation;
import dev.opcua.stack.core.types.structured.Range;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class NodeSetReaderTest {

    private static final String HEAD = """
            <?xml version="1.0" encoding="utf-8"?>
            <UANodeSet xmlns="http://opcfoundation.org/UA/2011/03/UANodeSet.xsd">
              <Aliases>
                <Alias Alias="HasSubtype">i=45</Alias>
                <Alias Alias="HasProperty">i=46</Alias>
                <Alias Alias="Double">i=11</Alias>
              </Aliases>
            """;

    private static final String TYPES = " xmlns=\"http://opcfoundation.org/UA/2008/02/Types.xsd\"";

    @Test
    void aliases_resolve_to_node_ids_and_inverse_references_keep_their_direction() {
        NodeSet nodeSet = read("""
                <UADataType NodeId="i=11" BrowseName="Double">
                  <DisplayName>Double</DisplayName>
                  <References>
                    <Reference ReferenceType="HasSubtype" IsForward="false">i=26</Reference>
                    <Reference ReferenceType="i=47">ns=1;s=Child</Reference>
                  </References>
                </UADataType>
                """);

        NodeDef node = nodeSet.nodes().get(0);
        assertThat(nodeSet.aliases()).containsEntry("HasSubtype", NodeId.ns0(45));
        assertThat(node.references()).containsExactly(
                new ReferenceDef(NodeId.ns0(45), ExpandedNodeId.of(NodeId.ns0(26)), false),
                new ReferenceDef(NodeId.ns0(47), ExpandedNodeId.of(NodeId.string(1, "Child")), true));
    }

    @Test
    void attributes_the_file_leaves_out_take_the_defaults_of_the_nodeset_schema() {
        NodeSet nodeSet = read("""
                <UAVariable NodeId="i=5001" BrowseName="Plain"/>
                <UAMethod NodeId="i=5002" BrowseName="Run"/>
                <UAObjectType NodeId="i=5003" BrowseName="SomeType"/>
                """);

        NodeDef variable = nodeSet.nodes().get(0);
        assertThat(variable.nodeClass()).isEqualTo(NodeClass.Variable);
        assertThat(variable.displayName()).isEqualTo(LocalizedText.of("Plain"));
        assertThat(variable.description()).isNull();
        assertThat(variable.dataType()).isEqualTo(NodeId.ns0(24));
        assertThat(variable.valueRank()).isEqualTo(-1);
        assertThat(variable.arrayDimensions()).isNull();
        assertThat(variable.accessLevel()).isEqualTo(1);
        assertThat(variable.userAccessLevel()).isEqualTo(1);
        assertThat(variable.minimumSamplingInterval()).isZero();
        assertThat(variable.historizing()).isFalse();
        assertThat(variable.value()).isNull();
        assertThat(nodeSet.nodes().get(1).executable()).isTrue();
        assertThat(nodeSet.nodes().get(1).userExecutable()).isTrue();
        assertThat(nodeSet.nodes().get(2).isAbstract()).isFalse();
    }

    @Test
    void attributes_of_each_node_class_are_read() {
        NodeSet nodeSet = read("""
                <UAVariable NodeId="ns=1;i=7" BrowseName="1:Matrix" DataType="Double" ValueRank="2"
                    ArrayDimensions="3,0" AccessLevel="259" UserAccessLevel="3" MinimumSamplingInterval="250.5"
                    Historizing="true" WriteMask="4" UserWriteMask="2">
                  <DisplayName Locale="en">The matrix</DisplayName>
                  <DisplayName Locale="de">Die Matrix</DisplayName>
                  <Description Locale="en">Cells</Description>
                </UAVariable>
                <UAReferenceType NodeId="i=33" BrowseName="HierarchicalReferences" IsAbstract="true" Symmetric="false">
                  <InverseName>InverseHierarchicalReferences</InverseName>
                </UAReferenceType>
                <UAObject NodeId="i=2253" BrowseName="Server" EventNotifier="1"/>
                <UAView NodeId="i=5010" BrowseName="AView" ContainsNoLoops="true" EventNotifier="2"/>
                <UAMethod NodeId="i=5011" BrowseName="Stop" Executable="false" UserExecutable="0"/>
                """);

        NodeDef variable = nodeSet.nodes().get(0);
        assertThat(variable.nodeId()).isEqualTo(NodeId.numeric(1, 7));
        assertThat(variable.browseName()).isEqualTo(QualifiedName.of(1, "Matrix"));
        assertThat(variable.displayName()).isEqualTo(LocalizedText.of("en", "The matrix"));
        assertThat(variable.description()).isEqualTo(LocalizedText.of("en", "Cells"));
        assertThat(variable.dataType()).isEqualTo(NodeId.ns0(11));
        assertThat(variable.valueRank()).isEqualTo(2);
        assertThat(variable.arrayDimensions()).containsExactly(3L, 0L);
        assertThat(variable.accessLevel()).isEqualTo(259);
        assertThat(variable.userAccessLevel()).isEqualTo(3);
        assertThat(variable.minimumSamplingInterval()).isEqualTo(250.5);
        assertThat(variable.historizing()).isTrue();
        assertThat(variable.writeMask()).isEqualTo(4);
        assertThat(variable.userWriteMask()).isEqualTo(2);
        NodeDef referenceType = nodeSet.nodes().get(1);
        assertThat(referenceType.isAbstract()).isTrue();
        assertThat(referenceType.symmetric()).isFalse();
        assertThat(referenceType.inverseName()).isEqualTo(LocalizedText.of("InverseHierarchicalReferences"));
        assertThat(nodeSet.nodes().get(2).eventNotifier()).isEqualTo((short) 1);
        assertThat(nodeSet.nodes().get(3).containsNoLoops()).isTrue();
        assertThat(nodeSet.nodes().get(3).eventNotifier()).isEqualTo((short) 2);
        assertThat(nodeSet.nodes().get(4).executable()).isFalse();
        assertThat(nodeSet.nodes().get(4).userExecutable()).isFalse();
    }

    @Test
    void builtin_scalar_and_array_values_become_variants_of_their_types() {
        NodeSet nodeSet = read(variable("<Boolean" + TYPES + ">true</Boolean>")
                + variable("<ListOfByte" + TYPES + "><Byte>0</Byte><Byte>255</Byte></ListOfByte>")
                + variable("<UInt32" + TYPES + ">4294967295</UInt32>")
                + variable("<ListOfDouble" + TYPES + "><Double>1.5</Double><Double>-INF</Double></ListOfDouble>")
                + variable("<String" + TYPES + "> spaced </String>")
                + variable("<DateTime" + TYPES + ">2023-12-15T00:00:00Z</DateTime>")
                + variable("<ByteString" + TYPES + ">AQID\nBA==</ByteString>")
                + variable("<Guid" + TYPES + "><String>09087e75-8e5e-499b-954f-f2a9603db28a</String></Guid>")
                + variable("<NodeId" + TYPES + "><Identifier>ns=2;s=Tank</Identifier></NodeId>")
                + variable("<QualifiedName" + TYPES + "><NamespaceIndex>2</NamespaceIndex><Name>Tank</Name>"
                        + "</QualifiedName>")
                + variable("<ListOfLocalizedText" + TYPES + "><LocalizedText><Locale>en</Locale><Text>On</Text>"
                        + "</LocalizedText><LocalizedText><Text>Off</Text></LocalizedText></ListOfLocalizedText>"));

        assertThat(nodeSet.droppedValues()).isEmpty();
        assertThat(nodeSet.nodes()).extracting(NodeDef::value).containsExactly(
                Variant.ofBoolean(true),
                Variant.ofArray(BuiltinType.Byte, new short[] {0, 255}),
                Variant.ofUInt32(4294967295L),
                Variant.ofArray(BuiltinType.Double, new double[] {1.5, Double.NEGATIVE_INFINITY}),
                Variant.ofString(" spaced "),
                Variant.of(DateTime.ofInstant(Instant.parse("2023-12-15T00:00:00Z"))),
                Variant.of(ByteString.of(new byte[] {1, 2, 3, 4})),
                Variant.of(UUID.fromString("09087e75-8e5e-499b-954f-f2a9603db28a")),
                Variant.of(NodeId.string(2, "Tank")),
                Variant.of(QualifiedName.of(2, "Tank")),
                Variant.ofArray(BuiltinType.LocalizedText,
                        new LocalizedText[] {LocalizedText.of("en", "On"), LocalizedText.of("Off")}));
    }

    @Test
    void extension_objects_of_the_standard_value_structures_are_decoded() {
        NodeSet nodeSet = read(variable("<ListOfExtensionObject" + TYPES + "><ExtensionObject>"
                + "<TypeId><Identifier>i=297</Identifier></TypeId><Body><Argument><Name>Handles</Name>"
                + "<DataType><Identifier>i=7</Identifier></DataType><ValueRank>1</ValueRank>"
                + "<ArrayDimensions><UInt32>0</UInt32></ArrayDimensions>"
                + "<Description><Text>Which ones.</Text></Description></Argument></Body>"
                + "</ExtensionObject></ListOfExtensionObject>")
                + variable("<ExtensionObject" + TYPES + "><TypeId><Identifier>i=888</Identifier></TypeId><Body>"
                        + "<EUInformation><NamespaceUri>http://www.opcfoundation.org/UA/units/un/cefact</NamespaceUri>"
                        + "<UnitId>4337968</UnitId><DisplayName><Locale>en</Locale><Text>bit/s</Text></DisplayName>"
                        + "</EUInformation></Body></ExtensionObject>")
                + variable("<ExtensionObject" + TYPES + "><TypeId><Identifier>i=885</Identifier></TypeId><Body>"
                        + "<Range><Low>-1.5</Low><High>100</High></Range></Body></ExtensionObject>"));

        assertThat(nodeSet.droppedValues()).isEmpty();
        ExtensionObject[] arguments = (ExtensionObject[]) nodeSet.nodes().get(0).value().value();
        assertThat(arguments).hasSize(1);
        assertThat(arguments[0].decoded(Argument.class)).isEqualTo(new Argument("Handles", NodeId.ns0(7), 1,
                new long[] {0}, LocalizedText.of("Which ones.")));
        assertThat(((ExtensionObject) nodeSet.nodes().get(1).value().value()).decoded(EUInformation.class))
                .isEqualTo(new EUInformation("http://www.opcfoundation.org/UA/units/un/cefact", 4337968,
                        LocalizedText.of("en", "bit/s"), LocalizedText.NULL));
        assertThat(((ExtensionObject) nodeSet.nodes().get(2).value().value()).decoded(Range.class))
                .isEqualTo(new Range(-1.5, 100));
    }

    @Test
    void a_value_that_cannot_be_converted_is_dropped_and_listed_with_its_node() {
        NodeSet nodeSet = read(variable("<ExtensionObject" + TYPES + "><TypeId><Identifier>i=12756</Identifier>"
                + "</TypeId><Body><Union><SwitchField>0</SwitchField></Union></Body></ExtensionObject>")
                + variable("<Matrix" + TYPES + "><Dimensions><Int32>1</Int32></Dimensions></Matrix>")
                + variable("<Byte" + TYPES + ">256</Byte>"));

        assertThat(nodeSet.nodes()).extracting(NodeDef::value).containsOnlyNulls();
        assertThat(nodeSet.droppedValues()).hasSize(3);
        assertThat(nodeSet.droppedValues().get(0)).startsWith("i=6000 V (line ").contains("<Union>");
        assertThat(nodeSet.droppedValues().get(1)).contains("Matrix");
        assertThat(nodeSet.droppedValues().get(2)).contains("256");
    }

    @Test
    void an_unknown_alias_or_malformed_node_id_is_reported_with_its_line() {
        assertThatThrownBy(() -> read("""
                <UAObject NodeId="i=1" BrowseName="A">
                  <References><Reference ReferenceType="NoSuchAlias">i=2</Reference></References>
                </UAObject>
                """))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("test.xml:")
                .hasMessageContaining("NoSuchAlias");
    }

    private int counter;

    /** A variable element with the next id from 6000 and the given value. */
    private String variable(String value) {
        return "<UAVariable NodeId=\"i=" + (6000 + counter++) + "\" BrowseName=\"V\"><Value>" + value
                + "</Value></UAVariable>\n";
    }

    private static NodeSet read(String nodes) {
        String xml = HEAD + nodes + "</UANodeSet>\n";
        return NodeSetReader.read("test.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
