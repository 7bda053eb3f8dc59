package dev.opcua.stack.codegen.schema;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * One {@code opc:StructuredType} of the type dictionary.
 *
 * @param name the type name
 * @param baseType the {@code BaseType} attribute with its prefix resolved, or null
 * @param fields every field in schema order, length fields and inherited fields included
 */
public record StructuredTypeDef(String name, QName baseType, List<FieldDef> fields) {

    public StructuredTypeDef {
        fields = List.copyOf(fields);
    }

    /** The fields that hold values: every field except those named as the length field of an array. */
    public List<FieldDef> valueFields() {
        Set<String> lengthFields = new HashSet<>();
        for (FieldDef field : fields) {
            if (field.lengthField() != null) {
                lengthFields.add(field.lengthField());
            }
        }
        return fields.stream().filter(f -> !lengthFields.contains(f.name())).toList();
    }
}
