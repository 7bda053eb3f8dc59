package dev.opcua.stack.codegen.emit;

/** Writes the package-info.java of each generated package. */
public final class PackageInfoWriter {

    private PackageInfoWriter() {
    }

    /** A package-info file with a one-sentence description. */
    public static GeneratedFile write(String packageName, String sentence) {
        String text = JavaWriter.HEADER + "\n"
                + "/** " + sentence + " */\n"
                + "package " + packageName + ";\n";
        return new GeneratedFile(JavaWriter.path(packageName, "package-info"), text);
    }
}
