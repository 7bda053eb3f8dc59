package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesRequest;
import dev.opcua.stack.core.types.structured.AddNodesResponse;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.AddReferencesRequest;
import dev.opcua.stack.core.types.structured.AddReferencesResponse;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.core.types.structured.DeleteNodesRequest;
import dev.opcua.stack.core.types.structured.DeleteNodesResponse;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesRequest;
import dev.opcua.stack.core.types.structured.DeleteReferencesResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.audit.AuditAction;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManagement service set (Part 4, 5.7): AddNodes, AddReferences, DeleteNodes and DeleteReferences,
 * each item applied to the in-memory node manager that owns its namespace and answered on its own (one bad
 * item fails alone). One request's changes are reported together as one GeneralModelChangeEvent on the
 * Server object (Part 3, 9.32; Part 5, 6.4.32), after they are visible to Browse.
 *
 * <p>Request-level faults: no items is BadNothingToDo, more than MaxNodesPerNodeManagement (Part 5, 6.3.11;
 * 0 = no limit) BadTooManyOperations. A session without one of the {@link NodeManagementSettings#roles()}
 * gets BadUserAccessDenied for every item. An auditing server raises one AuditAddNodesEvent (AuditDeleteNodes,
 * AuditAddReferences, AuditDeleteReferences) per request with its items (Part 4, 6.5; Part 5, 6.4.19). Requests run one at a
 * time: the changes of two requests never interleave, and a check sees the address space as the previous request
 * left it.
 */
public final class NodeManagementServices {

    private static final Logger log = LoggerFactory.getLogger(NodeManagementServices.class);
    private static final StatusCode DENIED = StatusCode.of(StatusCodes.BadUserAccessDenied);

    private final RequestGuard guard;
    private final AuditLog audit;
    private final long roleMask;
    private final int maxNodesPerNodeManagement;
    private final ModelChanges modelChanges;
    private final NodeAdder adder;
    private final NodeDeleter deleter;
    private final ReferenceEditor references;
    /** Where the added nodes are saved; null when they are kept in memory only. */
    private final PersistedAdditions persisted;
    private final Object lock = new Object();

    /**
     * @param referenceTypes the server's ReferenceType hierarchy, asked on each request
     * @param instances makes the Mandatory children of new Objects and Variables
     * @param modelChanges where the changes are reported
     * @param models the server's models, for the NodeSet2 files of {@link NodeManagementSettings#persistDirectory()}
     * @param maxNodesPerNodeManagement the operation limit of the four services, 0 for none
     * @param audit where each request is audited (Part 4, 6.5), when it is enabled
     * @throws IllegalArgumentException when the settings do not enable the services, or the limit is negative
     * @throws dev.opcua.stack.core.config.InvalidSettingException {@code nodeManagement.namespaces} when a namespace
     *     the settings name has no node manager that accepts changes
     * @throws dev.opcua.stack.server.nodeset.NodeSetException naming the file when a saved file cannot be read back
     */
    public NodeManagementServices(NodeManagers managers, RequestGuard guard, Supplier<ReferenceTypeTree> referenceTypes,
            TypeInstantiator instances, ModelChanges modelChanges, ModelRegistry models, NodeManagementSettings settings,
            int maxNodesPerNodeManagement, AuditLog audit) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("the NodeManagement services are not enabled in " + settings);
        }
        if (maxNodesPerNodeManagement < 0) {
            throw new IllegalArgumentException("maxNodesPerNodeManagement must be >= 0, was " + maxNodesPerNodeManagement);
        }
        this.guard = guard;
        this.audit = audit;
        this.roleMask = settings.roleMask();
        this.maxNodesPerNodeManagement = maxNodesPerNodeManagement;
        this.modelChanges = modelChanges;
        settings.checkNamespaces(managers, false);
        EditableNodes nodes = new EditableNodes(managers, referenceTypes, settings.namespaces());
        this.adder = new NodeAdder(nodes, instances);
        this.deleter = new NodeDeleter(nodes);
        this.references = new ReferenceEditor(nodes);
        if (settings.persistDirectory() != null) {
            persisted = new PersistedAdditions(settings.persistDirectory(), managers, models);
            persisted.restore(nodes);
        } else {
            persisted = null;
        }
    }

    /** Registers the four services with a dispatcher. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher
                .registerSync(AddNodesRequest.class, this::addNodes)
                .registerSync(AddReferencesRequest.class, this::addReferences)
                .registerSync(DeleteNodesRequest.class, this::deleteNodes)
                .registerSync(DeleteReferencesRequest.class, this::deleteReferences);
    }

    AddNodesResponse addNodes(ServerSecureChannel channel, AddNodesRequest request) {
        Session session = admit(channel, request.requestHeader(), request.nodesToAdd(), "nodes to add");
        AddNodesResult[] results = addNodes(roles(session), request.nodesToAdd());
        StatusCode[] statuses = new StatusCode[results.length];
        for (int i = 0; i < results.length; i++) {
            statuses[i] = results[i].statusCode();
        }
        audit(channel, session, request.requestHeader(), AuditAction.ADD_NODES, request.nodesToAdd(), statuses);
        return new AddNodesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results, null);
    }

    AddReferencesResponse addReferences(ServerSecureChannel channel, AddReferencesRequest request) {
        Session session = admit(channel, request.requestHeader(), request.referencesToAdd(), "references to add");
        StatusCode[] results = addReferences(roles(session), request.referencesToAdd());
        audit(channel, session, request.requestHeader(), AuditAction.ADD_REFERENCES, request.referencesToAdd(),
                results);
        return new AddReferencesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results, null);
    }

    DeleteNodesResponse deleteNodes(ServerSecureChannel channel, DeleteNodesRequest request) {
        Session session = admit(channel, request.requestHeader(), request.nodesToDelete(), "nodes to delete");
        StatusCode[] results = deleteNodes(roles(session), request.nodesToDelete());
        audit(channel, session, request.requestHeader(), AuditAction.DELETE_NODES, request.nodesToDelete(), results);
        return new DeleteNodesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results, null);
    }

    DeleteReferencesResponse deleteReferences(ServerSecureChannel channel, DeleteReferencesRequest request) {
        Session session = admit(channel, request.requestHeader(), request.referencesToDelete(), "references to delete");
        StatusCode[] results = deleteReferences(roles(session), request.referencesToDelete());
        audit(channel, session, request.requestHeader(), AuditAction.DELETE_REFERENCES,
                request.referencesToDelete(), results);
        return new DeleteReferencesResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), results,
                null);
    }

    /** Raises the request's audit event (Part 5, 6.4.19) when the server audits and the request has a session. */
    private void audit(ServerSecureChannel channel, Session session, RequestHeader header, AuditAction action,
            UaStructure[] items, StatusCode[] results) {
        if (audit.enabled() && session != null) {
            audit.raise(AuditRecords.nodeManagement(session.auditContext(channel, header), action, items, results));
        }
    }

    /**
     * AddNodes for a session with the role mask {@code roles} (-1: the server itself, which may do anything).
     * The methods below take the same mask; each answers every item and reports the changes made.
     */
    AddNodesResult[] addNodes(long roles, AddNodesItem[] items) {
        return apply("AddNodes", roles, items, new AddNodesResult[items.length], adder::add,
                new AddNodesResult(StatusCode.of(StatusCodes.BadUserAccessDenied), NodeId.NULL));
    }

    StatusCode[] addReferences(long roles, AddReferencesItem[] items) {
        return apply("AddReferences", roles, items, new StatusCode[items.length], references::add, DENIED);
    }

    StatusCode[] deleteNodes(long roles, DeleteNodesItem[] items) {
        return apply("DeleteNodes", roles, items, new StatusCode[items.length], deleter::delete, DENIED);
    }

    StatusCode[] deleteReferences(long roles, DeleteReferencesItem[] items) {
        return apply("DeleteReferences", roles, items, new StatusCode[items.length], references::delete, DENIED);
    }

    /** The change of one item: its result, the changes made going to {@code changes}. */
    @FunctionalInterface
    private interface ItemChange<I, R> {
        R apply(long roles, I item, ModelChangeList changes);
    }

    /**
     * Applies the items in order under the lock ({@code denied} for each when the session lacks the roles),
     * saves the added nodes when persisting, then reports the changes as one event.
     */
    private <I, R> R[] apply(String service, long roles, I[] items, R[] results, ItemChange<I, R> change, R denied) {
        ModelChangeList changes = new ModelChangeList();
        boolean allowed = roles == -1L || (roles & roleMask) != 0;
        synchronized (lock) {
            for (int i = 0; i < items.length; i++) {
                results[i] = allowed ? change.apply(roles, items[i], changes) : denied;
            }
            if (persisted != null && !changes.isEmpty()) {
                persisted.changed(changes);
            }
        }
        if (!changes.isEmpty()) {
            log.info("{} changed the address space: {} nodes affected", service, changes.changes().size());
            modelChanges.report(changes.changes());
        }
        return results;
    }

    /** The request's session (null without sessions) once the request passed the session check and the limit. */
    private Session admit(ServerSecureChannel channel, RequestHeader header, Object[] items, String what) {
        Session session = guard.check(channel, header);
        OperationLimits.check(items == null ? 0 : items.length, maxNodesPerNodeManagement, what);
        return session;
    }

    /** The session's role mask; -1 (every role) without sessions. */
    private static long roles(Session session) {
        return session == null ? -1L : session.roles();
    }
}
