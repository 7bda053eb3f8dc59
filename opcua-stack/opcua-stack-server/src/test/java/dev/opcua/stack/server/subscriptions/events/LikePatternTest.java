package dev.opcua.stack.server.subscriptions.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The Like pattern syntax of Part 4, 7.7.3 (special characters %, _, \, [] and [^]). */
class LikePatternTest {

    @ParameterizedTest(name = "''{1}'' like ''{0}'' is {2}")
    @CsvSource(delimiter = '|', value = {
        "Th%        | The       | true",
        "Th%        | Th        | true",
        "Th%        | the       | false",
        "%ing       | Boiling   | true",
        "%ing       | Boilings  | false",
        "%a%b%      | xaxxbx    | true",
        "%a%b%      | xbxxax    | false",
        "_ump       | Pump      | true",
        "_ump       | ump       | false",
        "B_i%r      | Boiler    | true",
        "[A-C]%     | Boiler    | true",
        "[A-C]%     | Drum      | false",
        "[^A-C]%    | Drum      | true",
        "[^A-C]%    | Boiler    | false",
        "[abc]1     | b1        | true",
        "[abc]1     | d1        | false",
        "100\\%     | 100%      | true",
        "100\\%     | 1000      | false",
        "a\\_b      | a_b       | true",
        "a\\_b      | axb       | false",
        "[]]x       | ]x        | true",
        "[\\]]x     | ]x        | true",
        "%          | ''        | true",
        "''         | ''        | true",
        "''         | a         | false",
        "%%%a       | aaa       | true",
    })
    void matches(String pattern, String text, boolean expected) {
        assertThat(LikePattern.compile(pattern).matches(text)).isEqualTo(expected);
    }

    @Test
    void malformed_patterns_are_refused_with_the_reason() {
        assertThatThrownBy(() -> LikePattern.compile("abc\\")).hasMessageContaining("ends with the escape character");
        assertThatThrownBy(() -> LikePattern.compile("a[bc")).hasMessageContaining("without its ']'");
        assertThatThrownBy(() -> LikePattern.compile("[z-a]")).hasMessageContaining("end precedes its start");
    }

    @Test
    void many_wildcards_on_a_long_text_stay_fast() {
        String text = "a".repeat(10_000);
        long start = System.nanoTime();
        assertThat(LikePattern.compile("%a%a%a%a%a%b").matches(text)).isFalse();
        assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
    }
}
