package dev.opcua.spring.boot.autoconfigure.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.BindingResult;
import org.springframework.validation.DirectFieldBindingResult;
import org.springframework.validation.FieldError;

/**
 * {@link PropertyConstraints}: each supported constraint with a valid and a broken value, the path and the
 * message of each error, list elements, map values, nested groups, cycles, and the loud refusal of what it
 * does not support.
 */
class PropertyConstraintsTest {

    static class Group {
        @Positive
        int count = 1;

        @Valid
        Group next;
    }

    /** Every field valid as constructed. */
    static class Sample {
        @NotNull
        Object notNull = "set";

        @NotBlank
        String notBlank = "text";

        @NotEmpty
        List<String> notEmpty = List.of("one");

        @Size(min = 1, max = 2)
        String size = "ab";

        @Min(2)
        int min = 2;

        @Max(10)
        Long max = 10L;

        @Positive
        int positive = 1;

        @PositiveOrZero
        BigDecimal positiveOrZero = BigDecimal.ZERO;

        @NotNull
        @Pattern(regexp = "/.*", message = "must start with '/'")
        String pattern = "/";

        @Pattern(regexp = "[a-z]+")
        String defaultPattern = "abc";

        @DataSizeRange(min = 8192, message = "must be a size of {min} \\{bytes\\} to {max} bytes")
        DataSize dataSize = DataSize.ofBytes(8192);

        @PositiveDuration
        Duration duration = Duration.ofMillis(1);

        @PositiveDuration(orZero = true, message = "must be a positive period")
        Period period = Period.ZERO;

        List<@NotBlank String> names = new ArrayList<>(List.of("a", "b"));

        Map<String, @Valid Group> groups = new LinkedHashMap<>(Map.of("plant", new Group()));

        @Valid
        List<Group> groupList = new ArrayList<>(List.of(new Group()));

        @Valid
        Group group = new Group();

        /** Not constrained: never read. */
        Object other = new Object();
    }

    static Stream<Arguments> brokenValues() {
        return Stream.of(
                broken(s -> s.notNull = null, "notNull", "NotNull", "must not be null"),
                broken(s -> s.notBlank = " \t", "notBlank", "NotBlank", "must not be blank"),
                broken(s -> s.notBlank = null, "notBlank", "NotBlank", "must not be blank"),
                broken(s -> s.notEmpty = List.of(), "notEmpty", "NotEmpty", "must not be empty"),
                broken(s -> s.size = "abc", "size", "Size", "size must be between 1 and 2"),
                broken(s -> s.min = 1, "min", "Min", "must be greater than or equal to 2"),
                broken(s -> s.max = 11L, "max", "Max", "must be less than or equal to 10"),
                broken(s -> s.positive = 0, "positive", "Positive", "must be greater than 0"),
                broken(s -> s.positiveOrZero = new BigDecimal("-0.1"), "positiveOrZero", "PositiveOrZero",
                        "must be greater than or equal to 0"),
                broken(s -> s.pattern = "plant", "pattern", "Pattern", "must start with '/'"),
                broken(s -> s.defaultPattern = "abc1", "defaultPattern", "Pattern", "must match \"[a-z]+\""),
                broken(s -> s.dataSize = DataSize.ofBytes(8191), "dataSize", "DataSizeRange",
                        "must be a size of 8192 {bytes} to 2147483647 bytes"),
                broken(s -> s.dataSize = null, "dataSize", "DataSizeRange",
                        "must be a size of 8192 {bytes} to 2147483647 bytes"),
                broken(s -> s.duration = Duration.ZERO, "duration", "PositiveDuration",
                        "must be a positive duration, such as 500ms, 30s, 10m or 1h"),
                broken(s -> s.period = Period.ofDays(-1), "period", "PositiveDuration", "must be a positive period"),
                broken(s -> s.names.set(1, ""), "names[1]", "NotBlank", "must not be blank"),
                broken(s -> s.groups.get("plant").count = 0, "groups[plant].count", "Positive",
                        "must be greater than 0"),
                broken(s -> s.groupList.get(0).count = -1, "groupList[0].count", "Positive",
                        "must be greater than 0"),
                broken(s -> s.group.count = 0, "group.count", "Positive", "must be greater than 0"),
                broken(s -> s.group.next = brokenGroup(), "group.next.count", "Positive", "must be greater than 0"));
    }

    private static Arguments broken(Consumer<Sample> change, String path, String code, String message) {
        return Arguments.of(path + " " + message, change, path, code, message);
    }

    private static Group brokenGroup() {
        Group group = new Group();
        group.count = 0;
        return group;
    }

    @Test
    void valid_values_pass() {
        assertThat(check(new Sample()).getAllErrors()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenValues")
    void a_broken_constraint_is_rejected_under_its_path_with_its_message(String name, Consumer<Sample> change,
            String path, String code, String message) {
        Sample sample = new Sample();
        change.accept(sample);
        BindingResult errors = check(sample);
        assertThat(errors.getAllErrors()).hasSize(1);
        FieldError error = errors.getFieldError();
        assertThat(error.getField()).isEqualTo(path);
        assertThat(error.getDefaultMessage()).isEqualTo(message);
        assertThat(error.getCode()).isEqualTo(code);
        assertThat(error.getCodes()).contains(code + ".sample." + path);
        assertThat(error.getArguments()).isNotEmpty();
    }

    @Test
    void the_rejected_value_is_the_value_of_the_field() {
        Sample sample = new Sample();
        sample.max = 70_000L;
        sample.names.set(0, " ");
        BindingResult errors = check(sample);
        assertThat(errors.getFieldValue("max")).isEqualTo(70_000L);
        assertThat(errors.getFieldError("names[0]").getRejectedValue()).isEqualTo(" ");
    }

    @Test
    void every_broken_constraint_is_reported() {
        Sample sample = new Sample();
        sample.notBlank = "";
        sample.min = 0;
        sample.groups.put("line", brokenGroup());
        assertThat(check(sample).getFieldErrors()).extracting(FieldError::getField)
                .containsExactlyInAnyOrder("notBlank", "min", "groups[line].count");
    }

    @Test
    void a_cycle_of_nested_groups_is_checked_once() {
        Sample sample = new Sample();
        sample.group.count = 0;
        sample.group.next = sample.group;
        assertThat(check(sample).getFieldErrors()).extracting(FieldError::getField).containsExactly("group.count");
    }

    static class Inherited extends Group {
        @NotBlank
        String name = "";
    }

    @Test
    void the_fields_of_a_superclass_are_checked() {
        Inherited inherited = new Inherited();
        inherited.count = 0;
        assertThat(check(inherited).getFieldErrors()).extracting(FieldError::getField)
                .containsExactlyInAnyOrder("count", "name");
    }

    static class UnsupportedConstraint {
        @Email
        String email = "ops@example.com";
    }

    static class WrongType {
        @Positive
        String count = "1";
    }

    static class ConstraintOnMapKey {
        Map<@NotBlank String, String> values = new LinkedHashMap<>();
    }

    static class ValidOnSet {
        @Valid
        Set<Group> groups = Set.of();
    }

    static class ConstraintOnGetter {
        private int count = 1;

        @Positive
        public int getCount() {
            return count;
        }
    }

    static class Grouped {
        @NotNull(groups = Sample.class)
        String name = "x";
    }

    static class UnknownMessageKey {
        @NotNull(message = "{opcua.name.missing}")
        String name = "x";
    }

    @Test
    void what_it_does_not_support_fails_loudly_naming_the_field_and_the_annotation_whatever_the_values() {
        assertThatIllegalStateException().isThrownBy(() -> check(new UnsupportedConstraint()))
                .withMessageContaining("UnsupportedConstraint.email").withMessageContaining("jakarta.validation"
                        + ".constraints.Email");
        assertThatIllegalStateException().isThrownBy(() -> check(new WrongType()))
                .withMessageContaining("WrongType.count").withMessageContaining("@Positive on a java.lang.String");
        assertThatIllegalStateException().isThrownBy(() -> check(new ConstraintOnMapKey()))
                .withMessageContaining("ConstraintOnMapKey.values").withMessageContaining("type argument");
        assertThatIllegalStateException().isThrownBy(() -> check(new ValidOnSet()))
                .withMessageContaining("ValidOnSet.groups").withMessageContaining("@Valid on a Set");
        assertThatIllegalStateException().isThrownBy(() -> check(new ConstraintOnGetter()))
                .withMessageContaining("ConstraintOnGetter.getCount()").withMessageContaining("@Positive");
        assertThatIllegalStateException().isThrownBy(() -> check(new Grouped()))
                .withMessageContaining("Grouped.name").withMessageContaining("@NotNull with groups");
        assertThatIllegalStateException().isThrownBy(() -> check(new UnknownMessageKey()))
                .withMessageContaining("UnknownMessageKey.name").withMessageContaining("{opcua.name.missing}");
    }

    private static BindingResult check(Object target) {
        BindingResult errors = new DirectFieldBindingResult(target, "sample");
        PropertyConstraints.check(target, errors);
        return errors;
    }
}
