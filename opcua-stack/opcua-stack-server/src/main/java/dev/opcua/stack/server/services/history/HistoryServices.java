package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.HistoryReadDetails;
import dev.opcua.stack.core.types.structured.HistoryReadRequest;
import dev.opcua.stack.core.types.structured.HistoryReadResponse;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.HistoryReadValueId;
import dev.opcua.stack.core.types.structured.HistoryUpdateDetails;
import dev.opcua.stack.core.types.structured.HistoryUpdateRequest;
import dev.opcua.stack.core.types.structured.HistoryUpdateResponse;
import dev.opcua.stack.core.types.structured.HistoryUpdateResult;
import dev.opcua.stack.core.types.structured.ReadEventDetails;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NumericRange;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.subscriptions.SessionResolver;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * HistoryRead (Part 4, 5.10.3) and HistoryUpdate (Part 4, 5.10.5): checks each request, resolves its
 * session's continuation points and each node's access, and hands each node to the {@link HistoryReader}
 * of the request's kind of details, or each details to the {@link HistoryUpdater} of its kind.
 *
 * <p>HistoryRead, request faults: no nodes BadNothingToDo; more than MaxNodesPerHistoryReadData (or
 * ...Events for ReadEventDetails) BadTooManyOperations; details that are missing or not a known
 * HistoryReadDetails BadHistoryOperationInvalid; TimestampsToReturn Neither or Invalid
 * BadTimestampsToReturnInvalid (ignored for events, Part 11, 6.5.2). Per node: a kind of details without
 * a reader BadHistoryOperationUnsupported; a continuation point that is unknown, used, released, freed
 * for a newer one, or of another node or kind BadContinuationPointInvalid; releaseContinuationPoints
 * frees the points given and reads nothing (Good); the access rules of {@link HistoryAccess}; an index
 * range that does not parse BadIndexRangeInvalid, a data encoding other than Default Binary
 * BadDataEncodingUnsupported; a reader's UaException gives its status, any other failure
 * BadInternalError.
 *
 * <p>HistoryUpdate: no details BadNothingToDo, more than MaxNodesPerHistoryUpdateData (events and data
 * counted together against the data limit unless all are events) BadTooManyOperations; per details, one
 * that is not decoded BadHistoryOperationInvalid, a kind without updater BadHistoryOperationUnsupported,
 * the access rules with the HistoryWrite bit.
 */
public final class HistoryServices {

    private static final String DEFAULT_BINARY = "Default Binary";

    private final NodeManagers managers;
    private final SessionResolver sessions;
    private final HistorySettings settings;
    private final HistoryAccess access;
    private final Map<Class<?>, HistoryReader<?>> readers;
    private final Map<Class<?>, HistoryUpdater<?>> updaters;

    private HistoryServices(Builder builder) {
        this.managers = Objects.requireNonNull(builder.managers, "nodeManagers");
        this.sessions = Objects.requireNonNull(builder.sessions, "sessions");
        this.settings = builder.settings;
        this.access = new HistoryAccess(managers);
        this.readers = Map.copyOf(builder.readers);
        this.updaters = Map.copyOf(builder.updaters);
    }

    public static Builder builder() {
        return new Builder();
    }

    public HistorySettings settings() {
        return settings;
    }

    /** Whether a reader is registered for the kind of details. */
    public boolean supports(Class<? extends HistoryReadDetails> kind) {
        return readers.containsKey(kind);
    }

    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(HistoryReadRequest.class, this::historyRead)
                .register(HistoryUpdateRequest.class, this::historyUpdate);
    }

    public CompletableFuture<HistoryReadResponse> historyRead(ServerSecureChannel channel, HistoryReadRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        HistoryReadValueId[] items = request.nodesToRead();
        int count = items == null ? 0 : items.length;
        HistoryReadDetails details = decoded(request.historyReadDetails(), HistoryReadDetails.class);
        HistoryReader<?> reader = readers.get(details.getClass());
        boolean events = reader != null ? reader.readsEvents() : details instanceof ReadEventDetails;
        OperationLimits.check(count, events ? settings.maxNodesPerHistoryReadEvents()
                : settings.maxNodesPerHistoryReadData(), "nodes to read");
        TimestampsToReturn timestamps = request.timestampsToReturn();
        if (!events && (timestamps == null || timestamps == TimestampsToReturn.Neither
                || timestamps == TimestampsToReturn.Invalid)) {
            throw new UaException(StatusCodes.BadTimestampsToReturnInvalid,
                    "timestampsToReturn " + timestamps + " is not valid for HistoryRead (Part 4, 5.10.3)");
        }
        long handle = request.requestHeader().requestHandle();
        HistoryContinuationPoints points = session.attachment(HistoryContinuationPoints.class,
                () -> new HistoryContinuationPoints(settings.maxContinuationPoints()));
        // the session's roles decide UserAccessLevel's HistoryRead bit (Part 3, 5.6.2; Part 11, 5.2.2)
        OperationContext context = new OperationContext(channel, session);
        NodeId[] nodes = new NodeId[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = items[i].nodeId();
        }
        CompletableFuture<int[]> checked = reader == null || request.releaseContinuationPoints()
                ? CompletableFuture.completedFuture(new int[count])
                : access.check(context, nodes, events, false);
        return checked.thenCompose(statuses -> {
            @SuppressWarnings("unchecked")
            CompletableFuture<HistoryReadResult>[] results = new CompletableFuture[count];
            for (int i = 0; i < count; i++) {
                results[i] = readNode(context, points, reader, details, timestamps, request.releaseContinuationPoints(),
                        items[i], statuses[i], i, count);
            }
            return CompletableFuture.allOf(results).thenApply(ignored -> {
                HistoryReadResult[] out = new HistoryReadResult[count];
                for (int i = 0; i < count; i++) {
                    out[i] = results[i].join();
                }
                return new HistoryReadResponse(ResponseHeaders.good(handle), out, null);
            });
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private CompletableFuture<HistoryReadResult> readNode(OperationContext context, HistoryContinuationPoints points,
            HistoryReader reader, HistoryReadDetails details, TimestampsToReturn timestamps, boolean release,
            HistoryReadValueId item, int status, int index, int count) {
        ByteString continuation = item.continuationPoint();
        boolean resuming = continuation != null && !continuation.isNull() && continuation.length() > 0;
        HistoryContinuationPoints.Point point = resuming ? points.take(continuation) : null;
        if (release) {
            // Part 4, 5.10.3: the points are freed, nothing is read
            return done(resuming && point == null ? HistoryReadOperation.failed(StatusCodes.BadContinuationPointInvalid)
                    : new HistoryReadResult(StatusCode.GOOD, null, ExtensionObject.NULL));
        }
        if (reader == null) {
            return done(HistoryReadOperation.failed(StatusCodes.BadHistoryOperationUnsupported));
        }
        if (status != StatusCodes.Good) {
            return done(HistoryReadOperation.failed(status));
        }
        if (resuming && (point == null || point.reader() != reader || !point.nodeId().equals(item.nodeId()))) {
            return done(HistoryReadOperation.failed(StatusCodes.BadContinuationPointInvalid));
        }
        QualifiedName encoding = item.dataEncoding();
        if (encoding != null && !encoding.isNull()
                && !(encoding.namespaceIndex() == 0 && DEFAULT_BINARY.equals(encoding.name()))) {
            return done(HistoryReadOperation.failed(StatusCodes.BadDataEncodingUnsupported));
        }
        NumericRange range;
        try {
            range = NumericRange.parse(item.indexRange());
        } catch (UaException e) {
            return done(HistoryReadOperation.failed(e.statusCode().value()));
        }
        HistoryReadOperation operation = new HistoryReadOperation(context, item.nodeId(), range, details, timestamps,
                settings.maxReturnDataValues(), points, reader, index, count);
        CompletableFuture<HistoryReadResult> result;
        try {
            result = point != null ? reader.resume(operation, point.state()) : reader.read(operation);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        return result.handle((value, failure) -> failure == null && value != null ? value
                : HistoryReadOperation.failed(statusOf(failure)));
    }

    public CompletableFuture<HistoryUpdateResponse> historyUpdate(ServerSecureChannel channel,
            HistoryUpdateRequest request) {
        Session session = sessions.resolve(channel, request.requestHeader());
        ExtensionObject[] items = request.historyUpdateDetails();
        int count = items == null ? 0 : items.length;
        HistoryUpdateDetails[] details = new HistoryUpdateDetails[count];
        HistoryUpdater<?>[] chosen = new HistoryUpdater<?>[count];
        boolean allEvents = count > 0;
        for (int i = 0; i < count; i++) {
            UaStructure decoded = items[i] == null ? null : items[i].decoded();
            details[i] = decoded instanceof HistoryUpdateDetails d ? d : null;
            chosen[i] = details[i] == null ? null : updaters.get(details[i].getClass());
            allEvents &= chosen[i] != null && chosen[i].updatesEvents();
        }
        OperationLimits.check(count, allEvents ? settings.maxNodesPerHistoryUpdateEvents()
                : settings.maxNodesPerHistoryUpdateData(), "history update details");
        long handle = request.requestHeader().requestHandle();
        // the user's roles decide UserAccessLevel's HistoryWrite bit, and the updaters record the user
        // (ModificationInfo.userName)
        OperationContext context = new OperationContext(channel, session);
        @SuppressWarnings("unchecked")
        CompletableFuture<HistoryUpdateResult>[] results = new CompletableFuture[count];
        for (int i = 0; i < count; i++) {
            results[i] = updateOne(context, chosen[i], details[i]);
        }
        return CompletableFuture.allOf(results).thenApply(ignored -> {
            HistoryUpdateResult[] out = new HistoryUpdateResult[count];
            for (int i = 0; i < count; i++) {
                out[i] = results[i].join();
            }
            return new HistoryUpdateResponse(ResponseHeaders.good(handle), out, null);
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private CompletableFuture<HistoryUpdateResult> updateOne(OperationContext context, HistoryUpdater updater,
            HistoryUpdateDetails details) {
        if (details == null) {
            return done(updateFailed(StatusCodes.BadHistoryOperationInvalid));
        }
        if (updater == null) {
            return done(updateFailed(StatusCodes.BadHistoryOperationUnsupported));
        }
        NodeId nodeId = updater.nodeId(details);
        return access.check(context, new NodeId[] {nodeId}, updater.updatesEvents(), true).thenCompose(statuses -> {
            if (statuses[0] != StatusCodes.Good) {
                return done(updateFailed(statuses[0]));
            }
            CompletableFuture<HistoryUpdateResult> result;
            try {
                result = updater.update(context, details);
            } catch (RuntimeException e) {
                result = CompletableFuture.failedFuture(e);
            }
            return result.handle((value, failure) -> failure == null && value != null ? value
                    : updateFailed(statusOf(failure)));
        });
    }

    /** The details as the expected structure. */
    private static <T extends UaStructure> T decoded(ExtensionObject object, Class<T> type) {
        UaStructure decoded = object == null ? null : object.decoded();
        if (!type.isInstance(decoded)) {
            throw new UaException(StatusCodes.BadHistoryOperationInvalid, "the request's details are "
                    + (object == null || object.isNull() ? "missing" : "not a known " + type.getSimpleName()
                    + ": " + object.encodingId()));
        }
        return type.cast(decoded);
    }

    static HistoryUpdateResult updateFailed(int status) {
        return new HistoryUpdateResult(StatusCode.of(status), null, null);
    }

    private static int statusOf(Throwable failure) {
        return Failures.status(failure, StatusCodes.BadInternalError);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /** Configuration of {@link HistoryServices}. */
    public static final class Builder {
        private NodeManagers managers;
        private SessionResolver sessions;
        private HistorySettings settings = HistorySettings.DEFAULT;
        private final Map<Class<?>, HistoryReader<?>> readers = new HashMap<>();
        private final Map<Class<?>, HistoryUpdater<?>> updaters = new HashMap<>();

        private Builder() {
        }

        /** Where the access of each node is read. */
        public Builder nodeManagers(NodeManagers value) {
            managers = Objects.requireNonNull(value, "nodeManagers");
            return this;
        }

        /** Finds the activated session of a request: {@code sessionManager::resolve}. */
        public Builder sessions(SessionResolver value) {
            sessions = Objects.requireNonNull(value, "sessions");
            return this;
        }

        public Builder settings(HistorySettings value) {
            settings = Objects.requireNonNull(value, "settings");
            return this;
        }

        /** Registers the reader of one kind of details; one per kind. */
        public Builder reader(HistoryReader<?> reader) {
            if (readers.putIfAbsent(reader.detailsType(), reader) != null) {
                throw new IllegalArgumentException("a reader of " + reader.detailsType().getSimpleName()
                        + " is registered already");
            }
            return this;
        }

        /** Registers the updater of one kind of details; one per kind. */
        public Builder updater(HistoryUpdater<?> updater) {
            if (updaters.putIfAbsent(updater.detailsType(), updater) != null) {
                throw new IllegalArgumentException("an updater of " + updater.detailsType().getSimpleName()
                        + " is registered already");
            }
            return this;
        }

        public HistoryServices build() {
            return new HistoryServices(this);
        }
    }
}
