package dev.opcua.stack.codegen.emit;

/**
 * One generated source file.
 *
 * @param relativePath the path below the output directory, with {@code /} separators
 * @param content the file content ({@code \n} line endings; written as UTF-8)
 */
public record GeneratedFile(String relativePath, String content) {
}
