package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.nio.charset.StandardCharsets;

/**
 * The text forms of NodeId and ExpandedNodeId (Part 6, 5.3.1.10 and 5.3.1.11), parsed from any string.
 *
 * <p>The only acceptable refusal is the documented {@link IllegalArgumentException}; a text that parses
 * must print back to a text that parses to the same value. Inputs are UTF-8 (malformed sequences become
 * U+FFFD), so the committed inputs are plain text files.
 */
class TextFormFuzzTest {

    @FuzzTest(maxDuration = "5m")
    void parseNodeId(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        NodeId id;
        try {
            id = NodeId.parse(text);
        } catch (IllegalArgumentException refused) {
            return;
        }
        NodeId again = NodeId.parse(id.toString());
        if (!again.equals(id)) {
            throw new AssertionError("'" + text + "' parsed to " + id + " which parses back to " + again);
        }
    }

    @FuzzTest(maxDuration = "5m")
    void parseExpandedNodeId(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        ExpandedNodeId id;
        try {
            id = ExpandedNodeId.parse(text);
        } catch (IllegalArgumentException refused) {
            return;
        }
        ExpandedNodeId again = ExpandedNodeId.parse(id.toString());
        if (!again.equals(id)) {
            throw new AssertionError("'" + text + "' parsed to " + id + " which parses back to " + again);
        }
    }
}
