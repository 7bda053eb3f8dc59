package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.models.StandardModels;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The shape of an export (Part 6, Annex F): its namespace table starts at 1 with the exported
 * namespace and lists only those the nodes refer to; its Model names what it requires; namespace-0
 * types are written as Aliases; BrowseNames carry the file's index; inverse references say
 * IsForward="false"; and what cannot be exported is refused or left out, saying what.
 */
class NodeSetExporterTest {

    private static final String LINE = "urn:test:exporter:line";
    private static OpcUaServer server;

    @BeforeAll
    static void start() {
        server = NodeSetFixtures.start(b -> b
                .nodeSet(StandardModels.di())
                .nodeSet(StandardModels.machinery())
                .nodeManager(InMemoryNodeManager.builder(LINE)
                        .folder("Line1")
                        .variable("Line1.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(12.5)).writable())
                        .variable("Line1.Grid", BuiltinType.Int32, v -> v.valueRank(2).arrayDimensions(2, 2)
                                .value(Variant.ofMatrix(BuiltinType.Int32, new int[] {1, 2, 3, 4}, new int[] {2, 2})))
                        .build()));
        int line = server.namespaces().indexOf(LINE);
        server.instances().instantiate(NodeId.numeric(server.namespaces().indexOf(NodeSetFixtures.MACHINERY), 1012),
                NodeId.string(line, "Line1.Identification"),
                QualifiedName.of(server.namespaces().indexOf(NodeSetFixtures.DI), "Identification"),
                NodeId.string(line, "Line1"), NodeId.ns0(NodeIds.HasAddIn), Set.of());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void the_file_numbers_the_namespaces_it_uses_from_one_with_the_exported_one_first() throws Exception {
        Document file = export(LINE);

        assertThat(texts(file, "Uri")).containsExactly(LINE, NodeSetFixtures.DI, NodeSetFixtures.MACHINERY);
        Element model = (Element) file.getElementsByTagName("Model").item(0);
        assertThat(model.getAttribute("ModelUri")).isEqualTo(LINE);
        assertThat(attributes(file, "RequiredModel", "ModelUri"))
                .containsExactly("http://opcfoundation.org/UA/", NodeSetFixtures.DI, NodeSetFixtures.MACHINERY);
        assertThat(attributes(file, "RequiredModel", "Version")).contains("1.04.0", "1.03.0");
        Element speed = node(file, "ns=1;s=Line1.Speed");
        assertThat(speed.getTagName()).isEqualTo("UAVariable");
        assertThat(speed.getAttribute("BrowseName")).isEqualTo("1:Speed");
        assertThat(speed.getAttribute("DataType")).isEqualTo("Double");
        assertThat(speed.getAttribute("AccessLevel")).isEqualTo("3");
        assertThat(speed.getElementsByTagName("uax:Double").item(0).getTextContent()).isEqualTo("12.5");
        Element identification = node(file, "ns=1;s=Line1.Identification");
        assertThat(identification.getAttribute("BrowseName")).isEqualTo("2:Identification");
        assertThat(identification.getAttribute("ParentNodeId")).isEqualTo("ns=1;s=Line1");
        assertThat(references(identification)).contains("HasTypeDefinition ns=3;i=1012",
                "HasAddIn IsForward=false ns=1;s=Line1");
        assertThat(references(node(file, "ns=1;s=Line1"))).contains("Organizes IsForward=false i=85");
    }

    @Test
    void namespace_0_types_are_written_as_aliases_named_by_their_browse_names() throws Exception {
        Document file = export(LINE);

        List<String> aliases = attributes(file, "Alias", "Alias");
        assertThat(aliases).contains("Double", "Organizes", "HasTypeDefinition", "HasAddIn", "HasProperty");
        NodeList alias = file.getElementsByTagName("Alias");
        for (int i = 0; i < alias.getLength(); i++) {
            if (((Element) alias.item(i)).getAttribute("Alias").equals("HasAddIn")) {
                assertThat(alias.item(i).getTextContent()).isEqualTo("i=17604");
            }
        }
    }

    @Test
    void a_model_refers_only_to_itself_and_what_it_requires_not_to_the_models_built_on_it() throws Exception {
        Document di = export(NodeSetFixtures.DI);

        // Machinery's types are subtypes of DI's, and this server's plant objects use DI's names; the
        // DI file carries neither: they belong to the files of Machinery and of the plant.
        assertThat(texts(di, "Uri")).containsExactly(NodeSetFixtures.DI);
        assertThat(attributes(di, "RequiredModel", "ModelUri")).containsExactly("http://opcfoundation.org/UA/");
        assertThat(attributes(di, "RequiredModel", "Version")).containsExactly("1.05.01");
    }

    @Test
    void namespace_0_exports_as_the_model_every_file_requires_without_listing_itself() throws Exception {
        Document ns0 = export("http://opcfoundation.org/UA/");

        assertThat(texts(ns0, "Uri")).isEmpty();
        Element model = (Element) ns0.getElementsByTagName("Model").item(0);
        assertThat(model.getAttribute("ModelUri")).isEqualTo("http://opcfoundation.org/UA/");
        assertThat(model.getAttribute("Version")).isEqualTo("1.05.03");
        assertThat(ns0.getElementsByTagName("RequiredModel").getLength()).isZero();
        Element server = node(ns0, "i=2253");
        assertThat(server.getAttribute("BrowseName")).isEqualTo("Server");
        assertThat(references(server)).contains("HasTypeDefinition i=2004");
    }

    @Test
    void a_value_without_an_xml_encoding_here_is_left_out_and_the_node_kept() throws Exception {
        Element grid = node(export(LINE), "ns=1;s=Line1.Grid");

        assertThat(grid.getAttribute("ValueRank")).isEqualTo("2");
        assertThat(grid.getAttribute("ArrayDimensions")).isEqualTo("2,2");
        assertThat(grid.getElementsByTagName("Value").getLength()).isZero();
    }

    @Test
    void a_namespace_the_server_lacks_or_holds_nowhere_in_memory_is_refused_naming_it() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThatThrownBy(() -> server.exportNodeSet("urn:test:nowhere", out))
                .isInstanceOf(NamespaceNotExportableException.class)
                .hasMessageStartingWith("namespace urn:test:nowhere is not in the server's namespace table [")
                .satisfies(e -> assertThat(((NamespaceNotExportableException) e).namespaceUri())
                        .isEqualTo("urn:test:nowhere"));
        assertThatThrownBy(() -> server.exportNodeSet("urn:test:nodeset:server", out))
                .isInstanceOf(NamespaceNotExportableException.class)
                .hasMessage("namespace urn:test:nodeset:server has no nodes in memory to export:"
                        + " no node manager owns it");
        assertThat(out.size()).isZero();
    }

    private static Document export(String namespaceUri) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        server.exportNodeSet(namespaceUri, out);
        return DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(out.toByteArray()));
    }

    private static Element node(Document file, String nodeId) {
        Element root = file.getDocumentElement();
        for (org.w3c.dom.Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().startsWith("UA") && nodeId.equals(e.getAttribute("NodeId"))) {
                return e;
            }
        }
        throw new AssertionError("no node " + nodeId + " in the export");
    }

    /** The node's references as "Type [IsForward=false] target". */
    private static List<String> references(Element node) {
        List<String> references = new ArrayList<>();
        NodeList list = node.getElementsByTagName("Reference");
        for (int i = 0; i < list.getLength(); i++) {
            Element r = (Element) list.item(i);
            references.add(r.getAttribute("ReferenceType")
                    + (r.hasAttribute("IsForward") ? " IsForward=" + r.getAttribute("IsForward") : "") + " "
                    + r.getTextContent());
        }
        return references;
    }

    private static List<String> texts(Document file, String tag) {
        List<String> texts = new ArrayList<>();
        NodeList list = file.getElementsByTagName(tag);
        for (int i = 0; i < list.getLength(); i++) {
            texts.add(list.item(i).getTextContent());
        }
        return texts;
    }

    private static List<String> attributes(Document file, String tag, String attribute) {
        List<String> values = new ArrayList<>();
        NodeList list = file.getElementsByTagName(tag);
        for (int i = 0; i < list.getLength(); i++) {
            values.add(((Element) list.item(i)).getAttribute(attribute));
        }
        return values;
    }
}
