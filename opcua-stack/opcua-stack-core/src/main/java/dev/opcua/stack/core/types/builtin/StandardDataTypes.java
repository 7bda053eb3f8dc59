package dev.opcua.stack.core.types.builtin;

import dev.opcua.stack.core.ids.NodeIds;
import java.util.Map;

/**
 * How the DataTypes of namespace 0 are encoded in a Variant (Part 6, 5.1.2; Part 5, 12): the 25
 * built-in types as themselves, the simple subtypes as their built-in supertype (a Duration is a
 * Double, a UtcTime a DateTime, an IntegerId a UInt32, an ImagePNG a ByteString ...), Enumeration as
 * Int32, Structure and Decimal as ExtensionObject, and the abstract BaseDataType, Number, Integer
 * and UInteger as {@link BuiltinType#Variant} (any member fits). The one table a server checking a
 * Write and a client converting a value before one both use.
 */
public final class StandardDataTypes {

    private static final Map<Integer, BuiltinType> SUBTYPES = Map.ofEntries(
            Map.entry(NodeIds.BaseDataType, BuiltinType.Variant),
            Map.entry(NodeIds.Number, BuiltinType.Variant),
            Map.entry(NodeIds.Integer, BuiltinType.Variant),
            Map.entry(NodeIds.UInteger, BuiltinType.Variant),
            Map.entry(NodeIds.Enumeration, BuiltinType.Int32),
            Map.entry(NodeIds.Structure, BuiltinType.ExtensionObject),
            Map.entry(NodeIds.Decimal, BuiltinType.ExtensionObject),
            Map.entry(NodeIds.Duration, BuiltinType.Double),
            Map.entry(NodeIds.UtcTime, BuiltinType.DateTime),
            Map.entry(NodeIds.LocaleId, BuiltinType.String),
            Map.entry(NodeIds.NumericRange, BuiltinType.String),
            Map.entry(NodeIds.DateString, BuiltinType.String),
            Map.entry(NodeIds.DecimalString, BuiltinType.String),
            Map.entry(NodeIds.DurationString, BuiltinType.String),
            Map.entry(NodeIds.NormalizedString, BuiltinType.String),
            Map.entry(NodeIds.TimeString, BuiltinType.String),
            Map.entry(NodeIds.UriString, BuiltinType.String),
            Map.entry(NodeIds.SemanticVersionString, BuiltinType.String),
            Map.entry(NodeIds.IntegerId, BuiltinType.UInt32),
            Map.entry(NodeIds.Counter, BuiltinType.UInt32),
            Map.entry(NodeIds.Index, BuiltinType.UInt32),
            Map.entry(NodeIds.VersionTime, BuiltinType.UInt32),
            Map.entry(NodeIds.Image, BuiltinType.ByteString),
            Map.entry(NodeIds.ImageBMP, BuiltinType.ByteString),
            Map.entry(NodeIds.ImageGIF, BuiltinType.ByteString),
            Map.entry(NodeIds.ImageJPG, BuiltinType.ByteString),
            Map.entry(NodeIds.ImagePNG, BuiltinType.ByteString),
            Map.entry(NodeIds.AudioDataType, BuiltinType.ByteString),
            Map.entry(NodeIds.EncodedTicket, BuiltinType.ByteString),
            Map.entry(NodeIds.ApplicationInstanceCertificate, BuiltinType.ByteString),
            Map.entry(NodeIds.ContinuationPoint, BuiltinType.ByteString),
            Map.entry(NodeIds.SessionAuthenticationToken, BuiltinType.NodeId));

    private StandardDataTypes() {
    }

    /**
     * The built-in type values of a namespace-0 DataType are encoded as; {@link BuiltinType#Variant}
     * for the abstract numeric types and BaseDataType; null for a DataType this table does not know
     * (another namespace, or a namespace-0 type that is neither built-in nor listed, such as the
     * concrete enumerations and structures: find those through their supertypes).
     */
    public static BuiltinType encodingOf(NodeId dataType) {
        if (dataType.namespaceIndex() != 0 || dataType.idType() != IdType.Numeric) {
            return null;
        }
        long id = dataType.numericId();
        if (id >= 1 && id <= 25) {
            return BuiltinType.fromTypeId((int) id);
        }
        return id > Integer.MAX_VALUE ? null : SUBTYPES.get((int) id);
    }
}
