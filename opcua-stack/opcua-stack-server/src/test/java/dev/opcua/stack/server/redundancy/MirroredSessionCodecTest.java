package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A mirrored session survives its encoding: session fields, identity, nonce; subscriptions in their parts. */
class MirroredSessionCodecTest {

    private static MirroredSession session() {
        DataValue queued = DataValue.of(Variant.ofInt32(42));
        NotificationMessage sent = new NotificationMessage(17, DateTime.ofEpochMillis(1_700_000_000_000L),
                new ExtensionObject[] {ExtensionObject.of(new DataChangeNotification(new MonitoredItemNotification[] {
                        new MonitoredItemNotification(1, DataValue.of(Variant.ofInt32(41)))}, null))});
        DurableSubscriptionRecord.Item item = new DurableSubscriptionRecord.Item(9, 1,
                new ReadValueId(NodeId.string(2, "Line/Speed"), 13, null, QualifiedName.NULL), MonitoringMode.Reporting,
                100, 1_000, true, ExtensionObject.NULL, TimestampsToReturn.Both, false, List.of(queued), queued,
                List.of());
        DurableSubscriptionRecord subscription = new DurableSubscriptionRecord(77, Identity.user("operator"), 500,
                2_400, 10, 0, (short) 0, true, 0, 1_800_000_000_000L, 18, List.of(sent), List.of(item));
        ApplicationDescription client = new ApplicationDescription("urn:client", "urn:product",
                LocalizedText.of("client"), ApplicationType.Client, null, null, new String[0]);
        return new MirroredSession(new SessionSnapshot(NodeId.guid(1, UUID.randomUUID()), "line 1", client,
                "opc.tcp://a:4840/", 60_000, 1 << 20, null,
                new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt),
                Identity.user("operator"), 6, ByteString.wrap(new byte[] {1, 2, 3})),
                Session.tokenHash(NodeId.opaque(0, ByteString.wrap(new byte[] {9, 9}))), List.of(subscription));
    }

    @Test
    void a_session_survives_a_round_trip() {
        SessionSnapshot original = session().session();
        assertThat(MirroredSessionCodec.decodeSession(MirroredSessionCodec.encodeSession(original)))
                .usingRecursiveComparison().isEqualTo(original);
    }

    @Test
    void a_subscription_with_its_queues_and_messages_survives_its_parts() {
        DurableSubscriptionRecord original = session().subscriptions().get(0);
        DurableSubscriptionRecord assembled = MirroredSubscriptionCodec.assemble(
                MirroredSubscriptionCodec.encodeDefinition(MirroredSubscriptionCodec.definitionOf(original)),
                original.nextSequenceNumber(), original.expiresAtMillis(),
                MirroredSubscriptionCodec.encodeQueues(MirroredSubscriptionCodec.queuesOf(original)),
                original.retransmission().stream().map(MirroredSubscriptionCodec::encodeMessage).toList());
        assertThat(assembled).usingRecursiveComparison().isEqualTo(original);
        assertThat(assembled.nextSequenceNumber()).isEqualTo(18);
    }

    @Test
    void another_format_version_is_refused_naming_both() {
        byte[] bytes = MirroredSessionCodec.encodeSession(session().session());
        bytes[0] = 9;
        assertThatThrownBy(() -> MirroredSessionCodec.decodeSession(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format 9").hasMessageContaining("reads 2");
        byte[] queues = MirroredSubscriptionCodec.encodeQueues(List.of());
        queues[0] = 7;
        assertThatThrownBy(() -> MirroredSubscriptionCodec.decodeQueues(queues))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format 7").hasMessageContaining("reads 1");
    }
}
