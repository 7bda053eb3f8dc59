package dev.opcua.stack.codegen.schema;

import java.util.List;

/**
 * The content of a binary type dictionary (Opc.Ua.Types.bsd), each list in document order.
 *
 * @param targetNamespace the {@code TargetNamespace} attribute
 * @param structuredTypes every structured type
 * @param enumeratedTypes every enumerated type, option sets included
 * @param opaqueTypes the names of every opaque type
 */
public record TypeDictionary(
        String targetNamespace,
        List<StructuredTypeDef> structuredTypes,
        List<EnumeratedTypeDef> enumeratedTypes,
        List<String> opaqueTypes) {

    public TypeDictionary {
        structuredTypes = List.copyOf(structuredTypes);
        enumeratedTypes = List.copyOf(enumeratedTypes);
        opaqueTypes = List.copyOf(opaqueTypes);
    }
}
