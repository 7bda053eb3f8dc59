package dev.opcua.stack.codegen.model;

import dev.opcua.stack.codegen.model.StructureModel.Shape;
import dev.opcua.stack.codegen.model.ValueType.Kind;
import dev.opcua.stack.codegen.schema.BsdReader;
import dev.opcua.stack.codegen.schema.EnumValueDef;
import dev.opcua.stack.codegen.schema.EnumeratedTypeDef;
import dev.opcua.stack.codegen.schema.FieldDef;
import dev.opcua.stack.codegen.schema.NodeIdEntry;
import dev.opcua.stack.codegen.schema.SchemaData;
import dev.opcua.stack.codegen.schema.SchemaException;
import dev.opcua.stack.codegen.schema.StructuredTypeDef;
import dev.opcua.stack.codegen.schema.TypeDictionary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.namespace.QName;

/**
 * The checked model of what is generated, built from the schema data.
 *
 * <p>Building it verifies every assumption the emitted code relies on and fails with a
 * {@link SchemaException} naming the offending type when one does not hold: no optional or
 * fixed-length fields, every array preceded by its Int32 length field, derived types repeating the
 * fields of their base first, every field type mapped, ids present in NodeIds.csv, no name clashes.
 * Peculiarities that are handled but worth knowing are collected in {@link #notes()}.
 *
 * @param schema the schema data the model was built from
 * @param structures the structure classes, sorted by name
 * @param enumerations the enums, sorted by name
 * @param optionSets the option set classes, sorted by name
 * @param skippedHandWritten the hand-written types found in the dictionary and skipped, in document order
 * @param notes peculiarities of the schema data, for the log
 */
public record GenerationModel(
        SchemaData schema,
        List<StructureModel> structures,
        List<EnumModel> enumerations,
        List<EnumModel> optionSets,
        List<String> skippedHandWritten,
        List<String> notes) {

    /** Name of the encoding node of a structure in NodeIds.csv: {@code <Structure>_Encoding_DefaultBinary}. */
    public static final String BINARY_ENCODING_SUFFIX = "_Encoding_DefaultBinary";

    public GenerationModel {
        structures = List.copyOf(structures);
        enumerations = List.copyOf(enumerations);
        optionSets = List.copyOf(optionSets);
        skippedHandWritten = List.copyOf(skippedHandWritten);
        notes = List.copyOf(notes);
    }

    /** Builds and checks the model. */
    public static GenerationModel build(SchemaData schema) {
        return new Builder(schema).build();
    }

    private static final class Builder {

        private final SchemaData schema;
        private final String uaNamespace;
        private final Map<String, Integer> nodeIds = new HashMap<>();
        private final Map<String, StructuredTypeDef> structureDefs = new TreeMap<>();
        private final Map<String, EnumeratedTypeDef> enumDefs = new TreeMap<>();
        private final Set<String> opaqueTypes = new TreeSet<>();
        private final Set<String> baseNames = new HashSet<>();
        private final Map<String, StructureModel> structures = new TreeMap<>();
        private final List<String> skipped = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        Builder(SchemaData schema) {
            this.schema = schema;
            TypeDictionary types = schema.types();
            this.uaNamespace = types.targetNamespace();
            for (NodeIdEntry entry : schema.nodeIds()) {
                nodeIds.put(entry.symbolicName(), entry.id());
            }
            for (StructuredTypeDef def : types.structuredTypes()) {
                if (BuiltinTypes.HAND_WRITTEN.contains(def.name())) {
                    skipped.add(def.name());
                } else if (structureDefs.put(def.name(), def) != null) {
                    throw new SchemaException("structure " + def.name() + " is declared twice");
                }
            }
            for (EnumeratedTypeDef def : types.enumeratedTypes()) {
                if (BuiltinTypes.HAND_WRITTEN.contains(def.name())) {
                    skipped.add(def.name());
                } else if (enumDefs.put(def.name(), def) != null || structureDefs.containsKey(def.name())) {
                    throw new SchemaException("type name " + def.name() + " is declared twice");
                }
            }
            for (String name : types.opaqueTypes()) {
                if (BuiltinTypes.HAND_WRITTEN.contains(name)) {
                    skipped.add(name);
                } else {
                    opaqueTypes.add(name);
                }
            }
        }

        GenerationModel build() {
            List<EnumModel> enums = new ArrayList<>();
            List<EnumModel> optionSets = new ArrayList<>();
            for (EnumeratedTypeDef def : enumDefs.values()) {
                checkTypeName(def.name());
                EnumModel model = enumModel(def);
                if (model == null) {
                    continue;
                }
                (def.optionSet() ? optionSets : enums).add(model);
            }
            for (StructuredTypeDef def : structureDefs.values()) {
                checkTypeName(def.name());
                QName base = def.baseType();
                if (base != null && uaNamespace.equals(base.getNamespaceURI())
                        && structureDefs.containsKey(base.getLocalPart())) {
                    baseNames.add(base.getLocalPart());
                }
            }
            for (String name : structureDefs.keySet()) {
                structure(name, new HashSet<>());
            }
            checkStructFieldTypes();
            return new GenerationModel(
                    schema, new ArrayList<>(structures.values()), enums, optionSets, skipped, notes);
        }

        private void checkTypeName(String name) {
            if (!JavaNames.isIdentifier(name)) {
                throw new SchemaException("type name '" + name + "' is not a valid Java identifier");
            }
            if (BuiltinTypes.referencedSimpleNames().contains(name)) {
                throw new SchemaException(
                        "type name '" + name + "' clashes with a class the generated code refers to by simple name");
            }
        }

        private EnumModel enumModel(EnumeratedTypeDef def) {
            String where = "enumeration " + def.name();
            if (def.values().isEmpty() && !def.optionSet()) {
                notes.add(where + " has no values: no enum generated");
                return null;
            }
            Set<String> names = new HashSet<>();
            Set<Long> values = new HashSet<>();
            for (EnumValueDef value : def.values()) {
                if (!JavaNames.isIdentifier(value.name())) {
                    throw new SchemaException(where + ": value name '" + value.name() + "' is not a Java identifier");
                }
                if (!names.add(value.name())) {
                    throw new SchemaException(where + ": value name '" + value.name() + "' appears twice");
                }
                if (def.optionSet()) {
                    if (value.name().equals("LENGTH_IN_BITS") || value.name().equals("TYPE_ID")) {
                        throw new SchemaException(where + ": value name '" + value.name() + "' clashes with a constant");
                    }
                    if (def.lengthInBits() < 64 && (value.value() < 0 || value.value() >= 1L << def.lengthInBits())) {
                        throw new SchemaException(where + ": value " + value.name() + " does not fit in "
                                + def.lengthInBits() + " bits");
                    }
                } else {
                    if (value.value() < Integer.MIN_VALUE || value.value() > Integer.MAX_VALUE) {
                        throw new SchemaException(where + ": value " + value.name() + " does not fit in an Int32");
                    }
                    if (!values.add(value.value())) {
                        throw new SchemaException(where + ": value " + value.value() + " appears twice");
                    }
                    if (value.name().equals("TYPE_ID")) {
                        throw new SchemaException(where + ": value name TYPE_ID clashes with a constant");
                    }
                }
            }
            if (def.optionSet() && BuiltinTypes.optionSetType(def.name(), def.lengthInBits()) == null) {
                throw new SchemaException(where + ": option set of " + def.lengthInBits()
                        + " bits is not supported (8, 16, 32 or 64)");
            }
            Integer dataTypeId = nodeIds.get(def.name());
            if (dataTypeId == null) {
                notes.add(where + " has no DataType row in NodeIds.csv: no TYPE_ID");
            }
            return new EnumModel(def.name(), def.optionSet(), def.lengthInBits(), dataTypeId, def.values());
        }

        private StructureModel structure(String name, Set<String> visiting) {
            StructureModel done = structures.get(name);
            if (done != null) {
                return done;
            }
            if (!visiting.add(name)) {
                throw new SchemaException("structure " + name + " derives from itself");
            }
            StructuredTypeDef def = structureDefs.get(name);
            String where = "structure " + name;

            StructureModel base = null;
            List<FieldDef> inheritedFields = List.of();
            QName baseType = def.baseType();
            if (baseType != null && !isUa(baseType, "ExtensionObject")) {
                if (!uaNamespace.equals(baseType.getNamespaceURI())
                        || !structureDefs.containsKey(baseType.getLocalPart())) {
                    throw new SchemaException(where + ": base type " + baseType + " is not a generated structure");
                }
                base = structure(baseType.getLocalPart(), visiting);
                inheritedFields = structureDefs.get(base.name()).fields();
            }

            List<FieldDef> fields = def.fields();
            checkFields(where, fields);
            if (fields.size() < inheritedFields.size()) {
                throw new SchemaException(where + ": has fewer fields than its base " + base.name());
            }
            boolean sourceTypesComplete = true;
            for (int i = 0; i < inheritedFields.size(); i++) {
                FieldDef inherited = inheritedFields.get(i);
                FieldDef field = fields.get(i);
                if (!field.name().equals(inherited.name()) || !field.typeName().equals(inherited.typeName())
                        || !Objects.equals(field.lengthField(), inherited.lengthField())) {
                    throw new SchemaException(where + ": field " + (i + 1) + " (" + field.name()
                            + ") does not repeat field " + inherited.name() + " of base " + base.name());
                }
                sourceTypesComplete &= field.sourceType() != null;
            }
            for (int i = inheritedFields.size(); i < fields.size(); i++) {
                if (fields.get(i).sourceType() != null) {
                    throw new SchemaException(where + ": field " + fields.get(i).name() + " has SourceType "
                            + fields.get(i).sourceType() + " but is not a field of base " + def.baseType());
                }
            }
            if (!sourceTypesComplete) {
                notes.add(where + ": repeats the fields of base " + base.name()
                        + " without SourceType on every one of them (matched by position)");
            }

            Set<String> inheritedNames = new HashSet<>();
            for (FieldDef field : inheritedFields) {
                inheritedNames.add(field.name());
            }
            List<PropertyModel> properties = new ArrayList<>();
            Set<String> javaNames = new HashSet<>();
            for (FieldDef field : def.valueFields()) {
                String javaName = JavaNames.memberName(field.name());
                if (!javaNames.add(javaName)) {
                    throw new SchemaException(where + ": two fields map to the Java name " + javaName);
                }
                if (javaName.equals("encoder") || javaName.equals("decoder") || javaName.equals("that")
                        || javaName.equals("result")) {
                    throw new SchemaException(where + ": field " + field.name()
                            + " maps to a Java name the generated code uses for a local variable");
                }
                boolean inherited = inheritedNames.contains(field.name());
                String plain = Character.toLowerCase(field.name().charAt(0)) + field.name().substring(1);
                if (!inherited && !javaName.equals(plain)) {
                    notes.add(where + ": field " + field.name() + " is named " + javaName + " in Java");
                }
                properties.add(new PropertyModel(field.name(), javaName, valueType(where, field),
                        field.isArray(), inherited));
            }

            Integer dataTypeId = nodeIds.get(name);
            if (dataTypeId == null) {
                throw new SchemaException(where + " has no DataType row '" + name + "' in NodeIds.csv");
            }
            Shape shape;
            if (!baseNames.contains(name)) {
                shape = Shape.FINAL;
            } else if (properties.isEmpty()) {
                shape = Shape.ABSTRACT;
            } else {
                shape = Shape.OPEN;
            }
            if (shape == Shape.FINAL && properties.isEmpty()) {
                notes.add(where + " has no fields and no subtypes: generated as a final class with an empty encoding");
            }
            Integer encodingId = nodeIds.get(name + BINARY_ENCODING_SUFFIX);
            if (encodingId == null) {
                if (shape != Shape.ABSTRACT) {
                    throw new SchemaException(where + " has no binary encoding row '" + name + BINARY_ENCODING_SUFFIX
                            + "' in NodeIds.csv");
                }
                notes.add(where + " (abstract) has no binary encoding row in NodeIds.csv");
            }
            StructureModel model = new StructureModel(
                    name, shape, base == null ? null : base.name(), dataTypeId, encodingId, properties);
            structures.put(name, model);
            visiting.remove(name);
            return model;
        }

        /** Fails on field features the generated codecs do not implement. */
        private void checkFields(String where, List<FieldDef> fields) {
            Map<String, Integer> positions = new HashMap<>();
            for (int i = 0; i < fields.size(); i++) {
                FieldDef field = fields.get(i);
                if (positions.put(field.name(), i) != null) {
                    throw new SchemaException(where + ": field " + field.name() + " appears twice");
                }
                if (field.switchField() != null) {
                    throw new SchemaException(where + ": field " + field.name() + " is optional (SwitchField="
                            + field.switchField() + "); optional fields are not supported");
                }
                if (field.fixedLength() != null) {
                    throw new SchemaException(where + ": field " + field.name() + " has a fixed Length; not supported");
                }
                if (field.lengthField() != null) {
                    Integer position = positions.get(field.lengthField());
                    FieldDef length = position == null ? null : fields.get(position);
                    if (length == null || position != i - 1 || length.isArray()
                            || !isBinarySchema(length.typeName(), "Int32")) {
                        throw new SchemaException(where + ": array field " + field.name() + " must directly follow"
                                + " its Int32 length field " + field.lengthField());
                    }
                }
            }
        }

        private ValueType valueType(String where, FieldDef field) {
            QName type = field.typeName();
            String local = type.getLocalPart();
            ValueType mapped = null;
            if (BsdReader.BINARY_SCHEMA_NS.equals(type.getNamespaceURI())) {
                mapped = BuiltinTypes.binarySchemaType(local);
            } else if (uaNamespace.equals(type.getNamespaceURI())) {
                mapped = BuiltinTypes.uaBuiltinType(local);
                if (mapped == null && structureDefs.containsKey(local)) {
                    mapped = new ValueType(Kind.STRUCT, "tns:" + local, local, null, "Struct");
                } else if (mapped == null && enumDefs.containsKey(local)) {
                    EnumeratedTypeDef enumDef = enumDefs.get(local);
                    if (enumDef.optionSet()) {
                        mapped = BuiltinTypes.optionSetType(local, enumDef.lengthInBits());
                    } else if (enumDef.lengthInBits() != 32 || enumDef.values().isEmpty()) {
                        throw new SchemaException(where + ": field " + field.name() + " has enumeration type " + local
                                + " of " + enumDef.lengthInBits() + " bits or without values; not supported");
                    } else {
                        mapped = new ValueType(Kind.ENUM, "tns:" + local, local,
                                "dev.opcua.stack.core.types.enumerated." + local, "Enum");
                    }
                } else if (mapped == null && opaqueTypes.contains(local)) {
                    throw new SchemaException(where + ": field " + field.name() + " has opaque type " + local
                            + "; the type dictionary does not say what it aliases, map it in BuiltinTypes");
                }
            }
            if (mapped == null) {
                throw new SchemaException(where + ": field " + field.name() + " has unsupported type " + type);
            }
            return mapped;
        }

        /** Fails on fields whose structure type has no codec (abstract classes cannot be decoded inline). */
        private void checkStructFieldTypes() {
            for (StructureModel structure : structures.values()) {
                for (PropertyModel property : structure.ownProperties()) {
                    if (property.type().kind() == Kind.STRUCT
                            && !structures.get(property.type().javaType()).isConcrete()) {
                        throw new SchemaException("structure " + structure.name() + ": field " + property.specName()
                                + " has abstract type " + property.type().javaType() + " that cannot be decoded inline");
                    }
                }
            }
        }

        private boolean isUa(QName name, String local) {
            return uaNamespace.equals(name.getNamespaceURI()) && local.equals(name.getLocalPart());
        }

        private static boolean isBinarySchema(QName name, String local) {
            return BsdReader.BINARY_SCHEMA_NS.equals(name.getNamespaceURI()) && local.equals(name.getLocalPart());
        }
    }
}
