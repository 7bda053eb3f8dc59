package dev.opcua.stack.codegen.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaNamesTest {

    @Test
    void member_names_are_lower_camel_case_of_the_specification_name() {
        assertThat(JavaNames.memberName("RequestHeader")).isEqualTo("requestHeader");
        assertThat(JavaNames.memberName("X")).isEqualTo("x");
        assertThat(JavaNames.memberName("maxAge")).isEqualTo("maxAge");
    }

    @Test
    void a_leading_acronym_is_lower_cased_as_a_whole() {
        assertThat(JavaNames.memberName("EURange")).isEqualTo("euRange");
        assertThat(JavaNames.memberName("URI")).isEqualTo("uri");
        assertThat(JavaNames.memberName("ServerURI")).isEqualTo("serverURI");
    }

    @Test
    void keywords_and_object_or_structure_method_names_get_an_underscore() {
        assertThat(JavaNames.memberName("Class")).isEqualTo("class_");
        assertThat(JavaNames.memberName("Default")).isEqualTo("default_");
        assertThat(JavaNames.memberName("HashCode")).isEqualTo("hashCode_");
        assertThat(JavaNames.memberName("GetClass")).isEqualTo("getClass_");
        assertThat(JavaNames.memberName("Wait")).isEqualTo("wait_");
        assertThat(JavaNames.memberName("TypeId")).isEqualTo("typeId_");
    }
}
