package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the references a Browse returned (Part 4, 5.9.2, ReferenceDescription in 7.30), by the browse
 * names of their targets (the name part, in any namespace). Failure messages list the browse names found.
 */
public class ReferenceDescriptionsAssert
        extends AbstractAssert<ReferenceDescriptionsAssert, List<ReferenceDescription>> {

    protected ReferenceDescriptionsAssert(List<ReferenceDescription> actual) {
        super(actual, ReferenceDescriptionsAssert.class);
    }

    /** Verifies that targets with all of {@code names} are among the references (others may be too). */
    public ReferenceDescriptionsAssert containsBrowseNames(String... names) {
        isNotNull();
        List<String> found = browseNames();
        List<String> missing = Arrays.stream(names).filter(name -> !found.contains(name)).toList();
        if (!missing.isEmpty()) {
            failWithMessage("Expecting references to targets with the browse names %s but %s were missing; the "
                    + "browse names were %s", Arrays.asList(names), missing, found);
        }
        return this;
    }

    /** Verifies that the references lead to targets with exactly {@code names}, in any order. */
    public ReferenceDescriptionsAssert containsExactlyInAnyOrderBrowseNames(String... names) {
        isNotNull();
        List<String> found = browseNames();
        List<String> unexpected = new ArrayList<>(found);
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (!unexpected.remove(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty() || !unexpected.isEmpty()) {
            failWithMessage("Expecting references to targets with exactly the browse names %s (in any order) but "
                    + "%s were missing and %s were not expected; the browse names were %s", Arrays.asList(names),
                    missing, unexpected, found);
        }
        return this;
    }

    /** Verifies that no reference leads to a target with one of {@code names}. */
    public ReferenceDescriptionsAssert doesNotContainBrowseNames(String... names) {
        isNotNull();
        List<String> found = browseNames();
        Set<String> present = new LinkedHashSet<>();
        for (String name : names) {
            if (found.contains(name)) {
                present.add(name);
            }
        }
        if (!present.isEmpty()) {
            failWithMessage("Expecting no references to targets with the browse names %s but found %s; the browse "
                    + "names were %s", Arrays.asList(names), present, found);
        }
        return this;
    }

    /** Verifies the number of references. */
    public ReferenceDescriptionsAssert hasSize(int expected) {
        isNotNull();
        if (actual.size() != expected) {
            failWithMessage("Expecting %d references but were %d, to %s", expected, actual.size(), browseNames());
        }
        return this;
    }

    /** The name parts of the targets' browse names, in the order of the references. */
    private List<String> browseNames() {
        return actual.stream().map(ReferenceDescription::browseName)
                .map(name -> name == null ? null : name.name()).filter(Objects::nonNull).toList();
    }
}
