package dev.opcua.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The defaults of a {@code --profile FILE}: the connection and output options under their long names without the
 * dashes ({@code policy}, {@code mode}, {@code user}, {@code password-file}, {@code pki}, {@code timeout}, {@code json}
 * ...), in a properties file or a YAML file of {@code key: value} lines. Options given on the command line win.
 * A key that is no such option stops the command naming the key and the keys allowed.
 */
public final class ProfileDefaults implements IDefaultValueProvider {

    private final Map<String, String> values;

    private ProfileDefaults(Map<String, String> values) {
        this.values = values;
    }

    /** The profile named by {@code --profile FILE} or {@code --profile=FILE} in {@code args}; null without one. */
    public static ProfileDefaults fromArguments(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) {
                return null;
            }
            if (args[i].equals("--profile")) {
                if (i + 1 >= args.length) {
                    throw CliException.usage("--profile needs a file: --profile FILE (a .properties or .yaml file)");
                }
                return load(Path.of(args[i + 1]));
            }
            if (args[i].startsWith("--profile=")) {
                return load(Path.of(args[i].substring("--profile=".length())));
            }
        }
        return null;
    }

    /** Reads a profile; {@code .yaml}/{@code .yml} as YAML key-value lines, anything else as properties. */
    public static ProfileDefaults load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw CliException.usage("the profile " + file.toAbsolutePath() + " does not exist or is not a file");
        }
        String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        try {
            Map<String, String> values = name.endsWith(".yaml") || name.endsWith(".yml") ? readYaml(file)
                    : readProperties(file);
            Set<String> unknown = new TreeSet<>(values.keySet());
            unknown.removeAll(allowedKeys());
            if (!unknown.isEmpty()) {
                throw CliException.usage("the profile " + file + " has keys that are no option: " + unknown
                        + "; allowed: " + new TreeSet<>(allowedKeys()));
            }
            return new ProfileDefaults(values);
        } catch (IOException e) {
            throw CliException.usage("the profile " + file + " cannot be read: " + e.getMessage());
        }
    }

    /** The long names, without dashes, of the connection and output options. */
    static Collection<String> allowedKeys() {
        Set<String> keys = new TreeSet<>();
        for (Object options : List.of(new ConnectionOptions(), new OutputOptions())) {
            for (OptionSpec option : CommandSpec.forAnnotatedObject(options).options()) {
                keys.add(key(option));
            }
        }
        keys.remove("profile");
        return keys;
    }

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (argSpec instanceof OptionSpec option) {
            return values.get(key(option));
        }
        return null;
    }

    private static String key(OptionSpec option) {
        return option.longestName().replaceFirst("^-+", "");
    }

    private static Map<String, String> readProperties(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties.forEach((k, v) -> values.put(k.toString().trim(), v.toString().trim()));
        return values;
    }

    /** The flat YAML a profile is: {@code key: value} lines, {@code #} comments, values optionally quoted. */
    private static Map<String, String> readYaml(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.equals("---")) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon <= 0 || Character.isWhitespace(line.charAt(0))) {
                throw CliException.usage("the profile " + file + ", line " + (i + 1) + ": expected 'key: value' at the"
                        + " start of the line, found '" + trimmed + "'");
            }
            String value = trimmed.substring(colon + 1).strip();
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                    || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            values.put(trimmed.substring(0, colon).strip(), value);
        }
        return values;
    }
}
