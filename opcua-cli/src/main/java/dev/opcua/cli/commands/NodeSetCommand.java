package dev.opcua.cli.commands;

import dev.opcua.cli.ClientCommand;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.nodeset.NodeSetExport;
import dev.opcua.stack.client.OpcUaClient;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** NodeSet2 documents (Part 6, Annex F) of a server's namespaces. */
@Command(name = "nodeset", description = "NodeSet2 XML of a server's namespaces.",
        subcommands = NodeSetCommand.Export.class)
public final class NodeSetCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a nodeset command is required: export");
    }

    /** Browses a namespace and writes it as NodeSet2 XML, to a file or stdout. */
    @Command(name = "export", description = "Browse one namespace of the server and write it as NodeSet2 XML.")
    static final class Export extends ClientCommand {

        @Parameters(index = "1", paramLabel = "NAMESPACE_URI", description = "The namespace to export.")
        String namespaceUri;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "The file to write (default stdout).")
        Path file;

        @Override
        protected int run(OpcUaClient client, Output output) throws Exception {
            long timeout = connection.timeout().toMillis() * 4;
            NodeSetExport.Result result;
            if (file == null) {
                OutputStream stdout = new WriterOutputStream(spec.commandLine().getOut());
                result = NodeSetExport.export(client, namespaceUri, stdout, output, timeout);
                stdout.flush();
            } else {
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
                    result = NodeSetExport.export(client, namespaceUri, out, output, timeout);
                }
            }
            output.clearProgress();
            String where = file == null ? "stdout" : file.toString();
            if (output.json() && file != null) {
                output.json(new JsonLine(null).string("namespaceUri", namespaceUri).string("file", where)
                        .number("nodes", result.nodes()).number("valuesLeftOut", result.valuesLeftOut()));
            } else {
                output.note("exported " + result.nodes() + " nodes of " + namespaceUri + " to " + where
                        + (result.valuesLeftOut() == 0 ? "" : "; " + result.valuesLeftOut() + " values left out (a "
                        + "structure or matrix without an XML form here)"));
            }
            return ExitCodes.OK;
        }
    }

    /** The bytes of the XML into the command line's stdout writer, as UTF-8 text. */
    private static final class WriterOutputStream extends OutputStream {

        private final PrintWriter writer;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        WriterOutputStream(PrintWriter writer) {
            this.writer = writer;
        }

        @Override
        public void write(int b) {
            buffer.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            buffer.write(b, off, len);
        }

        @Override
        public void flush() {
            writer.write(buffer.toString(StandardCharsets.UTF_8));
            writer.flush();
            buffer.reset();
        }
    }
}
