package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.model.EnumModel;
import dev.opcua.stack.codegen.model.GenerationModel;
import dev.opcua.stack.codegen.model.StructureModel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Renders every source file of a generation model. */
public final class Sources {

    private Sources() {
    }

    /** All generated files, sorted by path. */
    public static List<GeneratedFile> render(GenerationModel model) {
        List<GeneratedFile> files = new ArrayList<>();
        files.add(PackageInfoWriter.write(Packages.STRUCTURED,
                "Generated standard structures of the OPC UA information model and services, with their"
                        + " UA Binary codecs."));
        files.add(PackageInfoWriter.write(Packages.ENUMERATED,
                "Generated standard enumerations and option sets of the OPC UA information model."));
        files.add(PackageInfoWriter.write(Packages.IDS,
                "Generated identifiers of the standard nodes, status codes and attributes."));
        for (StructureModel structure : model.structures()) {
            files.add(StructureWriter.write(structure));
        }
        files.add(StandardStructuresWriter.write(model.structures()));
        for (EnumModel enumeration : model.enumerations()) {
            files.add(EnumWriter.write(enumeration));
        }
        for (EnumModel optionSet : model.optionSets()) {
            files.add(EnumWriter.write(optionSet));
        }
        files.add(IdsWriter.writeNodeIds(model.schema().nodeIds()));
        files.add(IdsWriter.writeStatusCodes(model.schema().statusCodes()));
        files.add(IdsWriter.writeAttributeIds(model.schema().attributeIds()));

        files.sort(Comparator.comparing(GeneratedFile::relativePath));
        Set<String> paths = new HashSet<>();
        for (GeneratedFile file : files) {
            if (!paths.add(file.relativePath().toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalStateException("two generated files at " + file.relativePath()
                        + " (paths compared ignoring case)");
            }
        }
        return files;
    }
}
