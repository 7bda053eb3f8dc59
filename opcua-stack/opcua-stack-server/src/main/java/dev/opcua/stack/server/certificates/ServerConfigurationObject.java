package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.OperationContext;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ServerConfiguration object of namespace 0 (i=12637; Part 12, 7.10.3 ServerConfigurationType) brought to
 * life: its properties (ServerCapabilities, SupportedPrivateKeyFormats PEM and PFX, MaxTrustListSize,
 * MulticastDnsEnabled false), the DefaultApplicationGroup's CertificateTypes and TrustList properties, and the
 * methods UpdateCertificate, CreateSigningRequest, ApplyChanges, GetRejectedList, GetCertificates (1.05) and
 * those of the TrustList (Part 12, 7.8.2). Each method call is checked by {@link PushManagementAccess} first
 * (SecurityAdmin on a SignAndEncrypt channel), then its arguments ({@link MethodArguments}); a refusal changes
 * nothing, answers the status Part 12 names and is logged with its reason.
 */
public final class ServerConfigurationObject {

    private static final Logger log = LoggerFactory.getLogger(ServerConfigurationObject.class);

    static final NodeId SERVER_CONFIGURATION = NodeId.ns0(NodeIds.ServerConfiguration);
    static final NodeId TRUST_LIST = NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList);

    private final ApplicationCertificateUpdates certificates;
    private final TrustListFile trustList;
    private final PkiDirectory pki;
    private final String[] capabilities;

    /**
     * @param capabilities the ServerCapabilities identifiers (Part 12, Annex D), such as "DA"
     */
    public ServerConfigurationObject(ApplicationCertificateUpdates certificates, TrustListFile trustList,
            PkiDirectory pki, List<String> capabilities) {
        this.certificates = certificates;
        this.trustList = trustList;
        this.pki = pki;
        this.capabilities = capabilities.toArray(new String[0]);
    }

    /** Puts the value sources on the object's variables and the code of its methods into namespace 0. */
    public void register(Namespace0NodeManager namespace0, NodeStore store) {
        value(store, NodeIds.ServerConfiguration_ServerCapabilities,
                () -> Variant.ofArray(BuiltinType.String, capabilities.clone()));
        value(store, NodeIds.ServerConfiguration_SupportedPrivateKeyFormats,
                () -> Variant.ofArray(BuiltinType.String, new String[] {"PEM", "PFX"}));
        value(store, NodeIds.ServerConfiguration_MaxTrustListSize, () -> Variant.ofUInt32(trustList.maxTrustListSize()));
        value(store, NodeIds.ServerConfiguration_MulticastDnsEnabled, () -> Variant.ofBoolean(false));
        value(store, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_CertificateTypes,
                () -> Variant.ofArray(BuiltinType.NodeId, certificates.heldTypes()));
        value(store, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Writable,
                () -> Variant.ofBoolean(true));
        // the methods check the role; the property cannot tell one session from another
        value(store, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_UserWritable,
                () -> Variant.ofBoolean(true));
        value(store, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_OpenCount,
                () -> Variant.ofUInt16(trustList.openCount()));
        value(store, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_LastUpdateTime,
                () -> Variant.ofScalar(BuiltinType.DateTime, trustList.lastUpdateTime()));
        // Part 12, 7.8.2.1: Size has no meaning for a TrustList; Part 20, 4.2.1 names Bad_NotSupported for it
        UaNode size = store.get(NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Size));
        if (size instanceof VariableNode variable) {
            variable.setValueSource(() -> DataValue.ofStatus(StatusCode.of(StatusCodes.BadNotSupported)));
        }

        method(namespace0, NodeIds.ServerConfiguration_UpdateCertificate, SERVER_CONFIGURATION, this::updateCertificate);
        method(namespace0, NodeIds.ServerConfiguration_CreateSigningRequest, SERVER_CONFIGURATION,
                this::createSigningRequest);
        method(namespace0, NodeIds.ServerConfiguration_ApplyChanges, SERVER_CONFIGURATION, this::applyChanges);
        method(namespace0, NodeIds.ServerConfiguration_GetRejectedList, SERVER_CONFIGURATION, this::getRejectedList);
        GetCertificatesNode.addIfMissing(store);
        method(namespace0, NodeIds.ServerConfiguration_GetCertificates, SERVER_CONFIGURATION, this::getCertificates);

        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open,
                TRUST_LIST, (c, a) -> uint32(trustList.open(c.session(), new MethodArguments("Open", a, 1)
                        .byteValue(0, "mode"))));
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_OpenWithMasks,
                TRUST_LIST, (c, a) -> uint32(trustList.openWithMasks(c.session(),
                        new MethodArguments("OpenWithMasks", a, 1).uint32(0, "masks"))));
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read,
                TRUST_LIST, (c, a) -> {
                    MethodArguments args = new MethodArguments("Read", a, 2);
                    byte[] data = trustList.read(c.session(), args.uint32(0, "fileHandle"), args.int32(1, "length"));
                    return new Variant[] {Variant.ofScalar(BuiltinType.ByteString, ByteString.wrap(data))};
                });
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Write,
                TRUST_LIST, (c, a) -> {
                    MethodArguments args = new MethodArguments("Write", a, 2);
                    byte[] data = args.byteString(1, "data");
                    trustList.write(c.session(), args.uint32(0, "fileHandle"), data == null ? new byte[0] : data);
                    return new Variant[0];
                });
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_GetPosition,
                TRUST_LIST, (c, a) -> new Variant[] {Variant.ofUInt64(trustList.getPosition(c.session(),
                        new MethodArguments("GetPosition", a, 1).uint32(0, "fileHandle")))});
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_SetPosition,
                TRUST_LIST, (c, a) -> {
                    MethodArguments args = new MethodArguments("SetPosition", a, 2);
                    trustList.setPosition(c.session(), args.uint32(0, "fileHandle"), args.uint64(1, "position"));
                    return new Variant[0];
                });
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close,
                TRUST_LIST, (c, a) -> {
                    trustList.close(c.session(), new MethodArguments("Close", a, 1).uint32(0, "fileHandle"));
                    return new Variant[0];
                });
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_CloseAndUpdate,
                TRUST_LIST, (c, a) -> new Variant[] {Variant.ofBoolean(trustList.closeAndUpdate(c.session(),
                        new MethodArguments("CloseAndUpdate", a, 1).uint32(0, "fileHandle")))});
        method(namespace0, NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate,
                TRUST_LIST, (c, a) -> {
                    MethodArguments args = new MethodArguments("AddCertificate", a, 2);
                    trustList.addCertificate(args.byteString(0, "certificate"), args.bool(1, "isTrustedCertificate"));
                    return new Variant[0];
                });
        method(namespace0,
                NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate,
                TRUST_LIST, (c, a) -> {
                    MethodArguments args = new MethodArguments("RemoveCertificate", a, 2);
                    trustList.removeCertificate(args.string(0, "thumbprint"), args.bool(1, "isTrustedCertificate"));
                    return new Variant[0];
                });
    }

    private Variant[] updateCertificate(OperationContext context, Variant[] inputs) {
        MethodArguments args = new MethodArguments("UpdateCertificate", inputs, 6);
        boolean applyChangesRequired = certificates.updateCertificate(context.session(),
                args.nodeId(0, "certificateGroupId"), args.nodeId(1, "certificateTypeId"),
                args.byteString(2, "certificate"), args.byteStrings(3, "issuerCertificates"),
                args.string(4, "privateKeyFormat"), args.byteString(5, "privateKey"));
        return new Variant[] {Variant.ofBoolean(applyChangesRequired)};
    }

    private Variant[] createSigningRequest(OperationContext context, Variant[] inputs) {
        MethodArguments args = new MethodArguments("CreateSigningRequest", inputs, 5);
        byte[] request = certificates.createSigningRequest(args.nodeId(0, "certificateGroupId"),
                args.nodeId(1, "certificateTypeId"), args.string(2, "subjectName"),
                args.bool(3, "regeneratePrivateKey"), args.byteString(4, "nonce"));
        return new Variant[] {Variant.ofScalar(BuiltinType.ByteString, ByteString.wrap(request))};
    }

    private Variant[] applyChanges(OperationContext context, Variant[] inputs) {
        new MethodArguments("ApplyChanges", inputs, 0);
        certificates.applyChanges(context.session());
        return new Variant[0];
    }

    private Variant[] getRejectedList(OperationContext context, Variant[] inputs) {
        new MethodArguments("GetRejectedList", inputs, 0);
        List<X509Certificate> rejected = pki.rejectedCertificates();
        ByteString[] der = new ByteString[rejected.size()];
        for (int i = 0; i < der.length; i++) {
            try {
                der[i] = ByteString.wrap(rejected.get(i).getEncoded());
            } catch (CertificateEncodingException e) {
                throw new UaException(StatusCodes.BadInternalError, "a rejected certificate cannot be encoded");
            }
        }
        return new Variant[] {Variant.ofArray(BuiltinType.ByteString, der)};
    }

    private Variant[] getCertificates(OperationContext context, Variant[] inputs) {
        MethodArguments args = new MethodArguments("GetCertificates", inputs, 1);
        List<ApplicationCertificateUpdates.GroupCertificate> list = certificates.certificates(
                args.nodeId(0, "certificateGroupId"));
        return new Variant[] {
                Variant.ofArray(BuiltinType.NodeId, list.stream().map(
                        ApplicationCertificateUpdates.GroupCertificate::typeId).toArray(NodeId[]::new)),
                Variant.ofArray(BuiltinType.ByteString, list.stream().map(
                        ApplicationCertificateUpdates.GroupCertificate::certificate).toArray(ByteString[]::new))};
    }

    private static Variant[] uint32(long value) {
        return new Variant[] {Variant.ofUInt32(value)};
    }

    /** The code of one method: its outputs, or a {@link UaException} with the status to answer. */
    @FunctionalInterface
    private interface Body {
        Variant[] call(OperationContext context, Variant[] inputs);
    }

    private static void method(Namespace0NodeManager namespace0, int methodId, NodeId objectId, Body body) {
        NodeId method = NodeId.ns0(methodId);
        String name = NodeIds.name(methodId);
        namespace0.method(method, (context, operation) -> call(context, operation, objectId, name, body));
    }

    private static void call(OperationContext context, CallOperation operation, NodeId objectId, String name,
            Body body) {
        if (!objectId.equals(operation.objectId())) {
            operation.fail(StatusCodes.BadMethodInvalid);
            return;
        }
        try {
            PushManagementAccess.check(context, name);
            operation.complete(body.call(context, operation.inputArguments()));
        } catch (MethodArguments.InvalidArgument e) {
            log.warn("{} refused for {}: {}", name, context.identity(), e.getMessage());
            operation.fail(e.statusCode().value(), e.inputArgumentResults());
        } catch (UaException e) {
            log.warn("{} refused for {}: {}", name, context.identity(), e.getMessage());
            operation.fail(e.statusCode().value());
        } catch (RuntimeException e) {
            log.error("{} failed", name, e);
            operation.fail(StatusCodes.BadInternalError);
        }
    }

    private static void value(NodeStore store, int id, Supplier<Variant> value) {
        UaNode node = store.get(NodeId.ns0(id));
        if (!(node instanceof VariableNode variable)) {
            throw new IllegalStateException("namespace 0 lacks variable i=" + id + ": regenerate ns0.bin");
        }
        DateTime time = DateTime.now();
        variable.setValueSource(() -> DataValue.of(value.get(), StatusCode.GOOD, time, null));
    }
}
