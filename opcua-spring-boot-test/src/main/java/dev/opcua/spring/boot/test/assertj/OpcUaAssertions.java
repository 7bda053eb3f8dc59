package dev.opcua.spring.boot.test.assertj;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.List;

/**
 * Entry point of the AssertJ assertions for OPC UA: statically import {@code OpcUaAssertions.assertThat} beside
 * {@code Assertions.assertThat}.
 *
 * <pre>{@code
 * assertThat(testClient.readValue("nsu=urn:acme:line1;s=Speed")).isGood().hasValue(240.0);
 * assertThat(statusCode).is(StatusCodes.BadUserAccessDenied);
 * assertThat(testClient.browse("i=85")).containsBrowseNames("Server");
 * }</pre>
 */
public final class OpcUaAssertions {

    private OpcUaAssertions() {
    }

    public static DataValueAssert assertThat(DataValue actual) {
        return new DataValueAssert(actual);
    }

    public static StatusCodeAssert assertThat(StatusCode actual) {
        return new StatusCodeAssert(actual);
    }

    public static VariantAssert assertThat(Variant actual) {
        return new VariantAssert(actual);
    }

    public static BrowseResultAssert assertThat(BrowseResult actual) {
        return new BrowseResultAssert(actual);
    }

    /** Assertions on the references of a Browse, such as {@code OpcUaClient.browse(NodeId)} returns. */
    public static ReferenceDescriptionsAssert assertThat(List<ReferenceDescription> actual) {
        return new ReferenceDescriptionsAssert(actual);
    }
}
