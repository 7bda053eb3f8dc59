package dev.opcua.stack.codegen.model;

import java.util.List;

/**
 * One generated structure class.
 *
 * @param name the structure name, also the Java class name
 * @param shape whether the class is final, open for subclasses, or abstract
 * @param baseName the name of the generated base class, or null when the structure derives directly from
 *     ExtensionObject
 * @param dataTypeId the numeric id of the DataType node
 * @param binaryEncodingId the numeric id of the DefaultBinary encoding node, or null when the schema data
 *     has none (allowed for abstract classes only)
 * @param properties every value field in schema order, those of the base classes first
 */
public record StructureModel(
        String name,
        Shape shape,
        String baseName,
        int dataTypeId,
        Integer binaryEncodingId,
        List<PropertyModel> properties) {

    /** How the class may be extended. */
    public enum Shape {
        /** A leaf: {@code public final class}. */
        FINAL,
        /** A base with fields: {@code public class}, instantiable and decodable. */
        OPEN,
        /** A base without fields: {@code public abstract class}, no codec. */
        ABSTRACT
    }

    public StructureModel {
        properties = List.copyOf(properties);
    }

    /** Whether the class has a codec (every shape but abstract). */
    public boolean isConcrete() {
        return shape != Shape.ABSTRACT;
    }

    /** The fields declared by this class itself. */
    public List<PropertyModel> ownProperties() {
        return properties.stream().filter(p -> !p.inherited()).toList();
    }

    /** The fields declared by the base classes. */
    public List<PropertyModel> inheritedProperties() {
        return properties.stream().filter(PropertyModel::inherited).toList();
    }
}
