package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BsdReaderSchemaIT {

    private static final String UA = "http://opcfoundation.org/UA/";

    private static TypeDictionary types;

    @BeforeAll
    static void readDictionary() throws Exception {
        types = BsdReader.read(SchemaLocations.requireSchemaDir().resolve(SchemaData.TYPES_FILE));
    }

    private static StructuredTypeDef structure(String name) {
        return types.structuredTypes().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void everyStructuredEnumeratedAndOpaqueTypeIsRead() {
        assertThat(types.targetNamespace()).isEqualTo(UA);
        assertThat(types.structuredTypes()).hasSize(329);
        assertThat(types.enumeratedTypes()).hasSize(61);
        assertThat(types.enumeratedTypes().stream().filter(EnumeratedTypeDef::optionSet)).hasSize(17);
        assertThat(types.opaqueTypes()).contains("StatusCode", "Duration", "UtcTime");
    }

    @Test
    void typesAreListedInDocumentOrder() {
        assertThat(types.structuredTypes().get(0).name()).isEqualTo("XmlElement");
        assertThat(types.enumeratedTypes().get(0).name()).isEqualTo("NodeIdType");
    }

    @Test
    void typeNamePrefixesResolveToNamespaces() {
        StructuredTypeDef readRequest = structure("ReadRequest");

        assertThat(readRequest.baseType()).isEqualTo(new QName(UA, "ExtensionObject"));
        assertThat(readRequest.fields().get(0).typeName()).isEqualTo(new QName(UA, "RequestHeader"));
        assertThat(readRequest.fields().get(1).typeName())
                .isEqualTo(new QName(BsdReader.BINARY_SCHEMA_NS, "Double"));
    }

    @Test
    void anArrayFieldNamesItsLengthFieldWhichIsNotAValueField() {
        StructuredTypeDef readRequest = structure("ReadRequest");

        assertThat(readRequest.fields()).extracting(FieldDef::name)
                .containsExactly("RequestHeader", "MaxAge", "TimestampsToReturn", "NoOfNodesToRead", "NodesToRead");
        assertThat(readRequest.valueFields()).extracting(FieldDef::name)
                .containsExactly("RequestHeader", "MaxAge", "TimestampsToReturn", "NodesToRead");
        FieldDef nodesToRead = readRequest.valueFields().get(3);
        assertThat(nodesToRead.isArray()).isTrue();
        assertThat(nodesToRead.lengthField()).isEqualTo("NoOfNodesToRead");
    }

    @Test
    void aDerivedTypeRepeatsTheFieldsOfItsBaseFirst() {
        StructuredTypeDef base = structure("NodeAttributes");
        StructuredTypeDef derived = structure("VariableAttributes");

        assertThat(derived.baseType()).isEqualTo(new QName(UA, "NodeAttributes"));
        List<FieldDef> leading = derived.fields().subList(0, base.fields().size());
        assertThat(leading).extracting(FieldDef::name)
                .containsExactlyElementsOf(base.fields().stream().map(FieldDef::name).toList());
        assertThat(leading).extracting(FieldDef::sourceType).containsOnly("tns:NodeAttributes");
        assertThat(derived.fields().get(base.fields().size()).sourceType()).isNull();
    }

    @Test
    void optionSetsKeepTheirSizeAndBitMasks() {
        EnumeratedTypeDef accessLevel = types.enumeratedTypes().stream()
                .filter(e -> e.name().equals("AccessLevelType")).findFirst().orElseThrow();

        assertThat(accessLevel.optionSet()).isTrue();
        assertThat(accessLevel.lengthInBits()).isEqualTo(8);
        assertThat(accessLevel.values()).contains(new EnumValueDef("CurrentRead", 1), new EnumValueDef("HistoryWrite", 8));
    }
}
