package dev.opcua.stack.codegen.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaNamesTest {

    @Test
    void memberNamesAreLowerCamelCaseOfTheSpecificationName() {
        assertThat(JavaNames.memberName("RequestHeader")).isEqualTo("requestHeader");
        assertThat(JavaNames.memberName("X")).isEqualTo("x");
        assertThat(JavaNames.memberName("maxAge")).isEqualTo("maxAge");
    }

    @Test
    void aLeadingAcronymIsLowerCasedAsAWhole() {
        assertThat(JavaNames.memberName("EURange")).isEqualTo("euRange");
        assertThat(JavaNames.memberName("URI")).isEqualTo("uri");
        assertThat(JavaNames.memberName("ServerURI")).isEqualTo("serverURI");
    }

    @Test
    void keywordsAndObjectOrStructureMethodNamesGetAnUnderscore() {
        assertThat(JavaNames.memberName("Class")).isEqualTo("class_");
        assertThat(JavaNames.memberName("Default")).isEqualTo("default_");
        assertThat(JavaNames.memberName("HashCode")).isEqualTo("hashCode_");
        assertThat(JavaNames.memberName("GetClass")).isEqualTo("getClass_");
        assertThat(JavaNames.memberName("Wait")).isEqualTo("wait_");
        assertThat(JavaNames.memberName("TypeId")).isEqualTo("typeId_");
    }
}
