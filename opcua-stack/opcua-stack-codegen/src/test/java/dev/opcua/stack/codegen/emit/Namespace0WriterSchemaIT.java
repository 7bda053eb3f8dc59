package dev.opcua.stack.codegen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.StandardNodeSet;
import dev.opcua.stack.codegen.schema.NodeSet;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The namespace 0 resource rendered from the standard nodeset. */
class Namespace0WriterSchemaIT {

    @Test
    void the_standard_nodeset_renders_to_the_same_bytes_every_time() {
        NodeSet nodeSet = StandardNodeSet.get();

        byte[] first = Namespace0Writer.render(nodeSet);
        byte[] second = Namespace0Writer.render(nodeSet);

        assertThat(Arrays.equals(first, second)).as("two renderings are byte-identical").isTrue();
        assertThat(first.length).as("compressed size").isBetween(50_000, 200_000);
    }
}
