package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import org.junit.jupiter.api.Test;

/** The declarations the builder accepts and refuses, and what it makes of them before any server starts. */
class InMemoryNodeManagerBuilderTest {

    private static final String NS = "urn:test:line";

    @Test
    void a_builder_needs_a_namespace_uri() {
        assertThatThrownBy(() -> InMemoryNodeManager.builder(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespaceUri");
        assertThatThrownBy(() -> InMemoryNodeManager.builder(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("namespaceUri");
    }

    @Test
    void a_path_is_refused_unless_it_is_dot_separated_names() {
        for (String path : new String[] {"", ".Motor", "Motor.", "Line1..Motor"}) {
            assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).object(path))
                    .as(path).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dot-separated");
        }
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).folder(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dot-separated");
    }

    @Test
    void a_manager_is_non_blocking_unless_a_supplier_or_write_handler_may_block() {
        assertThat(InMemoryNodeManager.builder(NS)
                .object("Motor")
                .variable("Motor.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.0)).writable())
                .method("Motor.Reset", null, null, (c, in) -> new Variant[0]) // Call never runs inline
                .build().isNonBlocking()).as("stored values only").isTrue();
        assertThat(InMemoryNodeManager.builder(NS)
                .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(() -> Variant.ofDouble(1.0)))
                .build().isNonBlocking()).as("a supplier").isFalse();
        assertThat(InMemoryNodeManager.builder(NS)
                .variable("Speed", BuiltinType.Double, v -> v.onWrite((c, value) -> { }))
                .build().isNonBlocking()).as("a write handler").isFalse();
        assertThat(InMemoryNodeManager.builder(NS).nonBlockingCallbacks()
                .variable("Speed", BuiltinType.Double, v -> v.valueSupplier(() -> Variant.ofDouble(1.0))
                        .onWrite((c, value) -> { }))
                .build().isNonBlocking()).as("callbacks that promise not to block").isTrue();
    }

    @Test
    void the_builder_refuses_undeclared_parents_duplicate_paths_and_methods_without_an_object() {
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).object("Line2.Motor").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Line2");
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).folder("A").object("A"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declared already");
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).method("Top", null, null, (c, in) -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).build().nodeId("X"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void a_refused_method_leaves_its_path_free_for_another_node() {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS);
        assertThatThrownBy(() -> builder.method("Reset", null, null, (c, in) -> new Variant[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs an object");
        assertThat(builder.object("Reset").build()).isNotNull();
    }

    @Test
    void a_method_below_a_variable_is_refused_naming_its_path() {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS)
                .variable("Speed", BuiltinType.Double, v -> { })
                .method("Speed.Reset", null, null, (c, in) -> new Variant[0]);
        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Speed.Reset: a method belongs to an object or a folder");
    }

    @Test
    void a_numeric_identifier_must_fit_a_uint32() {
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).object("Motor", o -> o.id(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UInt32");
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS).object("Motor", o -> o.id(0x1_0000_0000L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("UInt32");
        assertThat(InMemoryNodeManager.builder(NS).object("Motor", o -> o.id(0xFFFF_FFFFL)).build()).isNotNull();
    }

    @Test
    void an_explicit_parent_is_refused_for_a_node_whose_path_names_its_parent() {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS).object("Line1");
        assertThatThrownBy(() -> builder.object("Line1.Motor", o -> o.parent(NodeId.ns0(NodeIds.Server))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Line1.Motor has its parent in its path already");
    }

    @Test
    void a_value_rank_below_minus_three_is_refused() {
        assertThatThrownBy(() -> InMemoryNodeManager.builder(NS)
                .variable("Limits", BuiltinType.Double, v -> v.valueRank(-4)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("valueRank");
    }

    @Test
    void the_manager_serves_the_namespace_the_builder_was_made_for() {
        InMemoryNodeManager manager = InMemoryNodeManager.builder(NS).folder("Line1").build();
        assertThat(manager.namespaceUri()).isEqualTo(NS);
        assertThat(manager.namespaceUris()).containsExactly(NS);
        assertThat(manager.namespaceIndex()).as("before start").isEqualTo(-1);
    }
}
