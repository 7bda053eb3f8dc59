package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link BrowseResult} (Part 4, 5.9.2): its status and, by the browse names of their targets, its
 * references.
 */
public class BrowseResultAssert extends AbstractAssert<BrowseResultAssert, BrowseResult> {

    protected BrowseResultAssert(BrowseResult actual) {
        super(actual, BrowseResultAssert.class);
    }

    /** Verifies that the result's status is Good. */
    public BrowseResultAssert isGood() {
        statusCode().isGood();
        return this;
    }

    /** Verifies that the result's status is {@code code}, ignoring the info bits. */
    public BrowseResultAssert hasStatus(int code) {
        statusCode().is(code);
        return this;
    }

    /** Assertions on the result's status. */
    public StatusCodeAssert statusCode() {
        isNotNull();
        return new StatusCodeAssert(actual.statusCode());
    }

    /** Assertions on the result's references. */
    public ReferenceDescriptionsAssert references() {
        isNotNull();
        return new ReferenceDescriptionsAssert(referenceList());
    }

    /** @see ReferenceDescriptionsAssert#containsBrowseNames(String...) */
    public BrowseResultAssert containsBrowseNames(String... names) {
        references().containsBrowseNames(names);
        return this;
    }

    /** @see ReferenceDescriptionsAssert#containsExactlyInAnyOrderBrowseNames(String...) */
    public BrowseResultAssert containsExactlyInAnyOrderBrowseNames(String... names) {
        references().containsExactlyInAnyOrderBrowseNames(names);
        return this;
    }

    /** @see ReferenceDescriptionsAssert#doesNotContainBrowseNames(String...) */
    public BrowseResultAssert doesNotContainBrowseNames(String... names) {
        references().doesNotContainBrowseNames(names);
        return this;
    }

    private List<ReferenceDescription> referenceList() {
        ReferenceDescription[] references = actual.references();
        return references == null ? List.of() : Arrays.asList(references);
    }
}
