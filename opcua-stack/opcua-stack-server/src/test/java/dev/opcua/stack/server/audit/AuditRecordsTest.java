package dev.opcua.stack.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.SignedSoftwareCertificate;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The fields of each audit event type as Part 5, 6.4.3 to 6.4.27 and Part 9, 5.10 define them. */
class AuditRecordsTest {

    private static final String SERVER_ID = "urn:test:audit:server";
    private static final NodeId SESSION = NodeId.guid(1, UUID.fromString("00000000-0000-0000-0000-000000000042"));
    private static final AuditContext ALICE = new AuditContext("alice", "entry-7", "127.0.0.1:50000",
            "urn:test:client", SESSION, 17);

    private static Variant field(UaEvent event, String name) {
        return event.field(FieldPath.of(name));
    }

    @Test
    void a_failed_login_names_the_user_and_carries_the_token_without_its_password() {
        UserNameIdentityToken token = new UserNameIdentityToken("username", "alice",
                ByteString.wrap(new byte[] {1, 2, 3, 4}), "http://www.w3.org/2001/04/xmlenc#rsa-oaep");

        AuditRecord record = AuditRecords.activateSession(ALICE, new SignedSoftwareCertificate[0], token,
                StatusCodes.BadUserAccessDenied, "wrong password");
        UaEvent event = record.toEvent(SERVER_ID);

        assertThat(event.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditActivateSessionEventType));
        assertThat(event.sourceNode()).isEqualTo(NodeId.ns0(NodeIds.Server));
        assertThat(event.sourceName()).isEqualTo("Session/ActivateSession");
        assertThat(field(event, "Status").value()).isEqualTo(false);
        assertThat(field(event, "ClientUserId").value()).isEqualTo("alice");
        assertThat(field(event, "ServerId").value()).isEqualTo(SERVER_ID);
        assertThat(field(event, "ClientAuditEntryId").value()).isEqualTo("entry-7");
        assertThat(field(event, "SessionId").value()).isEqualTo(SESSION);
        assertThat(field(event, "SecureChannelId").value()).isEqualTo("17");
        assertThat(field(event, "ActionTimeStamp").isNull()).isFalse();
        assertThat(event.message().text()).contains("BadUserAccessDenied").contains("wrong password");
        UserNameIdentityToken shown = (UserNameIdentityToken) ((ExtensionObject) field(event, "UserIdentityToken")
                .value()).decoded();
        assertThat(shown.userName()).isEqualTo("alice");
        assertThat(shown.policyId()).isEqualTo("username");
        assertThat(shown.password().isNull()).as("the secret is removed").isTrue();
        assertThat(record.typeName()).isEqualTo("OPCUA_ACTIVATE_SESSION_FAILURE");
        assertThat(event.severity()).isGreaterThan(AuditRecord.SEVERITY_SUCCESS);
    }

    @Test
    void the_end_of_a_session_is_an_audit_session_event_named_by_how_it_ended() {
        UaEvent closed = AuditRecords.closeSession(ALICE, false, StatusCodes.Good, null).toEvent(SERVER_ID);
        UaEvent timedOut = AuditRecords.closeSession(ALICE, true, StatusCodes.Good, null).toEvent(SERVER_ID);

        assertThat(closed.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditSessionEventType));
        assertThat(closed.sourceName()).isEqualTo("Session/CloseSession");
        assertThat(timedOut.sourceName()).isEqualTo("Session/Timeout");
        assertThat(field(timedOut, "SessionId").value()).isEqualTo(SESSION);
        assertThat(field(closed, "ClientUserId").value()).isEqualTo("alice");
        assertThat(field(closed, "Status").value()).isEqualTo(true);
    }

    @Test
    void a_written_value_carries_the_node_the_attribute_the_range_and_the_old_and_new_values() {
        NodeId setpoint = NodeId.string(2, "Line.Setpoint");
        WriteValue write = new WriteValue(setpoint, 13, "0:1", DataValue.of(Variant.ofDouble(42)));

        UaEvent event = AuditRecords.write(ALICE, write, DataValue.of(Variant.ofDouble(10)), StatusCode.GOOD)
                .toEvent(SERVER_ID);

        assertThat(event.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditWriteUpdateEventType));
        assertThat(event.sourceNode()).isEqualTo(setpoint);
        assertThat(event.sourceName()).isEqualTo("Attribute/Write");
        assertThat(field(event, "AttributeId").value()).isEqualTo(13L);
        assertThat(field(event, "IndexRange").value()).isEqualTo("0:1");
        assertThat(field(event, "OldValue").value()).isEqualTo(10.0);
        assertThat(field(event, "NewValue").value()).isEqualTo(42.0);
        assertThat(field(event, "Status").value()).isEqualTo(true);
    }

    @Test
    void a_called_method_carries_its_object_method_inputs_outputs_and_status() {
        NodeId line = NodeId.string(2, "Line");
        NodeId start = NodeId.string(2, "Line.Start");
        CallMethodRequest call = new CallMethodRequest(line, start, new Variant[] {Variant.ofInt32(3)});
        CallMethodResult result = new CallMethodResult(StatusCode.of(StatusCodes.BadUserAccessDenied), null, null,
                new Variant[0]);

        UaEvent event = AuditRecords.call(ALICE, call, result).toEvent(SERVER_ID);

        assertThat(event.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditUpdateMethodEventType));
        assertThat(event.sourceNode()).isEqualTo(line);
        assertThat(event.sourceName()).isEqualTo("Attribute/Call");
        assertThat(field(event, "MethodId").value()).isEqualTo(start);
        assertThat((Variant[]) field(event, "InputArguments").value()).containsExactly(Variant.ofInt32(3));
        assertThat(field(event, "StatusCodeId").value()).isEqualTo(StatusCode.of(StatusCodes.BadUserAccessDenied));
        assertThat(field(event, "Status").value()).isEqualTo(false);
    }

    @Test
    void an_open_secure_channel_has_the_system_user_and_the_request_fields() {
        UaEvent event = AuditRecords.openSecureChannel("10.0.0.5:4711", 99, SecurityTokenRequestType.Issue,
                "http://opcfoundation.org/UA/SecurityPolicy#None", MessageSecurityMode.None, 3_600_000, null,
                StatusCodes.Good, null).toEvent(SERVER_ID);

        assertThat(event.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditOpenSecureChannelEventType));
        assertThat(event.sourceName()).isEqualTo("SecureChannel/OpenSecureChannel");
        assertThat(field(event, "ClientUserId").value()).isEqualTo("System/OpenSecureChannel");
        assertThat(field(event, "SecureChannelId").value()).isEqualTo("99");
        assertThat(field(event, "RequestType").value()).isEqualTo(SecurityTokenRequestType.Issue.value());
        assertThat(field(event, "SecurityMode").value()).isEqualTo(MessageSecurityMode.None.value());
        assertThat(field(event, "SecurityPolicyUri").value())
                .isEqualTo("http://opcfoundation.org/UA/SecurityPolicy#None");
        assertThat(field(event, "RequestedLifetime").value()).isEqualTo(3_600_000.0);
        assertThat(field(event, "Status").value()).isEqualTo(true);
    }

    @Test
    void the_validator_status_chooses_the_certificate_event_type() {
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateUntrusted))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateUntrustedEventType));
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateTimeInvalid))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateExpiredEventType));
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateIssuerRevoked))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateRevokedEventType));
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateUriInvalid))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateDataMismatchEventType));
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateUseNotAllowed))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateMismatchEventType));
        assertThat(AuditRecords.certificateEventType(StatusCodes.BadCertificateChainIncomplete))
                .isEqualTo(NodeId.ns0(NodeIds.AuditCertificateInvalidEventType));
    }

    @Test
    void an_acknowledgement_carries_the_condition_event_id_and_comment() {
        NodeId condition = NodeId.string(3, "Motor1.Temperature");
        ByteString eventId = ByteString.wrap(new byte[] {9, 9});
        UaEvent event = AuditRecords.conditionMethod(ALICE, AuditRecords.ConditionMethod.ACKNOWLEDGE, condition,
                NodeId.ns0(NodeIds.AcknowledgeableConditionType_Acknowledge),
                new Variant[] {Variant.of(eventId), Variant.of(LocalizedText.of("seen"))}, eventId,
                LocalizedText.of("seen"), StatusCodes.Good, null).toEvent(SERVER_ID);

        assertThat(event.eventType()).isEqualTo(NodeId.ns0(NodeIds.AuditConditionAcknowledgeEventType));
        assertThat(event.sourceNode()).isEqualTo(condition);
        assertThat(event.sourceName()).isEqualTo("Method/Acknowledge");
        assertThat(field(event, "ConditionEventId").value()).isEqualTo(eventId);
        assertThat(field(event, "Comment").value()).isEqualTo(LocalizedText.of("seen"));
        assertThat(field(event, "MethodId").value())
                .isEqualTo(NodeId.ns0(NodeIds.AcknowledgeableConditionType_Acknowledge));
    }
}
