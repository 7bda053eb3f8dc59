package dev.opcua.cli.values;

import dev.opcua.cli.CliException;
import dev.opcua.stack.core.ids.AttributeIds;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;

/** The attributes of Part 3, 5.9 by name ({@code Value}, {@code DataType}, {@code BrowseName} ...), any case. */
public final class AttributeNames {

    private static final Map<String, Integer> IDS = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private static final Map<Integer, String> NAMES = new TreeMap<>();

    static {
        for (Field field : AttributeIds.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                try {
                    IDS.put(field.getName(), field.getInt(null));
                    NAMES.put(field.getInt(null), field.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private AttributeNames() {
    }

    /** The id of an attribute name or number; a usage error listing the names otherwise. */
    public static int id(String name) {
        Integer id = IDS.get(name.strip());
        if (id == null && name.strip().chars().allMatch(Character::isDigit) && !name.isBlank()) {
            id = Integer.valueOf(name.strip());
        }
        if (id == null || !NAMES.containsKey(id)) {
            throw CliException.usage("'" + name + "' is not an attribute; one of " + IDS.keySet());
        }
        return id;
    }

    public static String name(int id) {
        return NAMES.getOrDefault(id, String.valueOf(id));
    }
}
