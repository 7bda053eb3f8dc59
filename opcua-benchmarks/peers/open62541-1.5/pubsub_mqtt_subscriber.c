/* PubSub subscriber over MQTT on open62541 1.5.x for the data set of pubsub_mqtt_publisher
 * (Counter UInt32, Temperature Double, Running Boolean, Label String). Prints
 * "RECV Counter=<n> Temperature=<t> Running=<b> Label=<s>" per received DataSetMessage.
 *
 * Two ways to receive (--decode):
 *  reader  open62541's subscriber API: a ReaderGroup on the topic and a DataSetReader filtering
 *          on PublisherId, WriterGroupId and DataSetWriterId, writing the fields into four target
 *          variables of the embedded server; the line is printed when the last field (Label) is
 *          written. Default for UADP.
 *  direct  the topic is subscribed through the MQTT ConnectionManager of the server's EventLoop and
 *          each MQTT message is decoded with UA_NetworkMessage_decodeJson/decodeBinary, then
 *          filtered on the same identifiers. Default for JSON, because the DataSetReader of
 *          open62541 1.5.7 rejects every JSON NetworkMessage (UA_DataSetReader_checkIdentifier
 *          returns BadNotFound for JSON ReaderGroups: the check is a TODO there).
 *
 * Exit 0 after --count DataSetMessages (0 = until SIGTERM/SIGINT), 3 when --timeout-s passes first,
 * 1 on setup errors, 2 on bad arguments. */
#include "pubsub_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile UA_Boolean stopRequested = false;
static UA_Boolean shuttingDown = false;

typedef struct {
    PsOptions *opts;
    UA_DataSetMetaDataType metaData;
    UA_NodeId targets[PS_FIELD_COUNT];
    UA_UInt32 received;
    UA_UInt32 skipped;
    UA_String host; /* points into the --broker argument */
    UA_UInt16 port;
} Subscriber;

static Subscriber sub;

static void finishLine(char *line) {
    if(sub.opts->count > 0 && sub.received >= sub.opts->count)
        return; /* more arrived in the same round than asked for */
    printf("%s\n", line);
    fflush(stdout);
    sub.received++;
}

/* ---- reader: DataSetReader with target variables ---- */

static void onLabelWritten(UA_Server *server, const UA_NodeId *sessionId, void *sessionContext,
                           const UA_NodeId *nodeId, void *nodeContext, const UA_NumericRange *range,
                           const UA_DataValue *data) {
    char line[512] = "RECV";
    for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
        UA_Variant v;
        UA_Variant_init(&v);
        UA_Server_readValue(server, sub.targets[i], &v);
        ps_appendField(line, sizeof(line), PS_FIELD_NAMES[i], &v);
        UA_Variant_clear(&v);
    }
    finishLine(line);
}

static UA_StatusCode setupReader(UA_Server *server) {
    PsOptions *o = sub.opts;
    UA_PubSubConnectionConfig cc;
    memset(&cc, 0, sizeof(cc));
    cc.name = UA_STRING("InteropMqttSubscriber");
    cc.transportProfileUri = ps_transportProfile(o->json);
    UA_NetworkAddressUrlDataType address = {UA_STRING_NULL, UA_STRING((char *)(uintptr_t)o->broker)};
    UA_Variant_setScalar(&cc.address, &address, &UA_TYPES[UA_TYPES_NETWORKADDRESSURLDATATYPE]);
    cc.publisherId.idType = UA_PUBLISHERIDTYPE_STRING; /* the subscriber's own, never sent */
    cc.publisherId.id.string = UA_STRING("open62541-interop-subscriber");
    UA_NodeId connection;
    UA_StatusCode rc = UA_Server_addPubSubConnection(server, &cc, &connection);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addPubSubConnection: %s\n", UA_StatusCode_name(rc));
        return rc;
    }

    UA_ReaderGroupConfig rgc;
    memset(&rgc, 0, sizeof(rgc));
    rgc.name = UA_STRING("InteropReaderGroup");
    rgc.encodingMimeType = o->json ? UA_PUBSUB_ENCODING_JSON : UA_PUBSUB_ENCODING_UADP;
    UA_BrokerDataSetReaderTransportDataType transport;
    UA_BrokerDataSetReaderTransportDataType_init(&transport);
    transport.queueName = UA_STRING((char *)(uintptr_t)o->topic);
    transport.requestedDeliveryGuarantee = UA_BROKERTRANSPORTQUALITYOFSERVICE_BESTEFFORT;
    UA_ExtensionObject_setValueNoDelete(&rgc.transportSettings, &transport,
                                        &UA_TYPES[UA_TYPES_BROKERDATASETREADERTRANSPORTDATATYPE]);
    UA_NodeId readerGroup;
    rc = UA_Server_addReaderGroup(server, connection, &rgc, &readerGroup);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addReaderGroup: %s\n", UA_StatusCode_name(rc));
        return rc;
    }

    UA_DataSetReaderConfig drc;
    memset(&drc, 0, sizeof(drc));
    drc.name = UA_STRING("InteropDataSetReader");
    drc.publisherId = o->publisherId;
    drc.writerGroupId = o->writerGroupId;
    drc.dataSetWriterId = o->dataSetWriterId;
    drc.dataSetMetaData = sub.metaData; /* copied by addDataSetReader */
    drc.dataSetFieldContentMask = o->fieldContentMask;
    drc.messageReceiveTimeout = 0.0;
    UA_NodeId reader;
    rc = UA_Server_addDataSetReader(server, readerGroup, &drc, &reader);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addDataSetReader: %s\n", UA_StatusCode_name(rc));
        return rc;
    }

    /* One target variable per field, in the order of the metadata */
    UA_NodeId folder;
    UA_ObjectAttributes oa = UA_ObjectAttributes_default;
    oa.displayName = UA_LOCALIZEDTEXT("", "SubscribedFields");
    rc = UA_Server_addObjectNode(server, UA_NODEID_STRING(1, "SubscribedFields"), UA_NS0ID(OBJECTSFOLDER),
        UA_NS0ID(ORGANIZES), UA_QUALIFIEDNAME(1, "SubscribedFields"), UA_NS0ID(BASEOBJECTTYPE), oa, NULL, &folder);
    if(rc != UA_STATUSCODE_GOOD)
        return rc;
    UA_FieldTargetDataType targets[PS_FIELD_COUNT];
    for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
        UA_VariableAttributes va = UA_VariableAttributes_default;
        va.displayName = UA_LOCALIZEDTEXT("", (char *)(uintptr_t)PS_FIELD_NAMES[i]);
        va.dataType = sub.metaData.fields[i].dataType;
        va.valueRank = UA_VALUERANK_SCALAR;
        va.accessLevel = UA_ACCESSLEVELMASK_READ | UA_ACCESSLEVELMASK_WRITE;
        rc = UA_Server_addVariableNode(server, UA_NODEID_STRING(1, (char *)(uintptr_t)PS_FIELD_NAMES[i]),
            folder, UA_NS0ID(HASCOMPONENT), UA_QUALIFIEDNAME(1, (char *)(uintptr_t)PS_FIELD_NAMES[i]),
            UA_NS0ID(BASEDATAVARIABLETYPE), va, NULL, &sub.targets[i]);
        if(rc != UA_STATUSCODE_GOOD)
            return rc;
        UA_FieldTargetDataType_init(&targets[i]);
        targets[i].attributeId = UA_ATTRIBUTEID_VALUE;
        targets[i].targetNodeId = sub.targets[i];
    }
    rc = UA_Server_setDataSetReaderTargetVariables(server, reader, PS_FIELD_COUNT, targets);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "setDataSetReaderTargetVariables: %s\n", UA_StatusCode_name(rc));
        return rc;
    }
    UA_ValueSourceNotifications notify = {NULL, onLabelWritten};
    return UA_Server_setVariableNode_internalValueSource(server, sub.targets[PS_LABEL], NULL, &notify);
}

/* ---- direct: raw MQTT subscription and open62541's NetworkMessage decoders ---- */

static UA_Boolean sameIdentity(const UA_PublisherId *a, const UA_PublisherId *b) {
    if(a->idType != b->idType)
        return false;
    switch(a->idType) {
    case UA_PUBLISHERIDTYPE_BYTE: return a->id.byte == b->id.byte;
    case UA_PUBLISHERIDTYPE_UINT16: return a->id.uint16 == b->id.uint16;
    case UA_PUBLISHERIDTYPE_UINT32: return a->id.uint32 == b->id.uint32;
    case UA_PUBLISHERIDTYPE_UINT64: return a->id.uint64 == b->id.uint64;
    case UA_PUBLISHERIDTYPE_STRING: return UA_String_equal(&a->id.string, &b->id.string);
    default: return false;
    }
}

/* In JSON the PublisherId is a string; a numeric configured id matches its decimal text. */
static UA_Boolean publisherMatches(const UA_PublisherId *received) {
    const UA_PublisherId *want = &sub.opts->publisherId;
    if(sameIdentity(received, want))
        return true;
    if(sub.opts->json && received->idType == UA_PUBLISHERIDTYPE_STRING) {
        char text[128];
        ps_publisherIdText(want, text, sizeof(text));
        const char *value = strchr(text, ':') + 1;
        return strlen(value) == received->id.string.length &&
               memcmp(value, received->id.string.data, received->id.string.length) == 0;
    }
    return false;
}

static void processDirect(const UA_ByteString *msg) {
    PsOptions *o = sub.opts;
    if(o->verbose) {
        if(o->json) {
            printf("RAW %.*s\n", (int)msg->length, (const char *)msg->data);
        } else {
            printf("RAW ");
            for(size_t i = 0; i < msg->length; i++)
                printf("%02x", msg->data[i]);
            printf("\n");
        }
    }
    UA_DataSetMessage_EncodingMetaData emd;
    memset(&emd, 0, sizeof(emd));
    emd.dataSetWriterId = o->dataSetWriterId;
    emd.fields = sub.metaData.fields;
    emd.fieldsSize = sub.metaData.fieldsSize;
    UA_NetworkMessage_EncodingOptions eo = {1, &emd};
    UA_NetworkMessage nm;
    memset(&nm, 0, sizeof(nm));
    UA_StatusCode rc = o->json ? UA_NetworkMessage_decodeJson(msg, &nm, &eo, NULL)
                               : UA_NetworkMessage_decodeBinary(msg, &nm, &eo, NULL);
    if(rc != UA_STATUSCODE_GOOD) {
        printf("UNDECODABLE %s (%lu bytes)\n", UA_StatusCode_name(rc), (unsigned long)msg->length);
        fflush(stdout);
        return;
    }
    if(nm.publisherIdEnabled && !publisherMatches(&nm.publisherId)) {
        sub.skipped++;
        goto done;
    }
    if(nm.groupHeaderEnabled && nm.groupHeader.writerGroupIdEnabled &&
       nm.groupHeader.writerGroupId != o->writerGroupId) {
        sub.skipped++;
        goto done;
    }
    for(size_t m = 0; m < nm.messageCount; m++) {
        if(nm.payloadHeaderEnabled && nm.dataSetWriterIds[m] != o->dataSetWriterId)
            continue;
        UA_DataSetMessage *dsm = &nm.payload.dataSetMessages[m];
        if(dsm->header.dataSetMessageType != UA_DATASETMESSAGE_DATAKEYFRAME) {
            printf("SKIP DataSetMessageType=%d\n", (int)dsm->header.dataSetMessageType);
            continue;
        }
        char line[512] = "RECV";
        for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
            const UA_Variant *v = (i < dsm->fieldCount && dsm->data.keyFrameFields[i].hasValue)
                                      ? &dsm->data.keyFrameFields[i].value : NULL;
            ps_appendField(line, sizeof(line), PS_FIELD_NAMES[i], v);
        }
        finishLine(line);
    }
done:
    fflush(stdout);
    UA_NetworkMessage_clear(&nm);
}

static void onTopicEvent(UA_ConnectionManager *cm, uintptr_t connectionId, void *application,
                         void **connectionContext, UA_ConnectionState state,
                         const UA_KeyValueMap *params, UA_ByteString msg) {
    if(state == UA_CONNECTIONSTATE_CLOSING) {
        if(shuttingDown)
            return;
        fprintf(stderr, "the MQTT connection closed\n");
        stopRequested = true;
        return;
    }
    if(msg.length > 0)
        processDirect(&msg);
}

static UA_StatusCode setupDirect(UA_Server *server) {
    UA_EventLoop *el = UA_Server_getConfig(server)->eventLoop;
    UA_ConnectionManager *mqtt = NULL;
    UA_String protocol = UA_STRING("mqtt");
    for(UA_EventSource *es = el->eventSources; es; es = es->next) {
        if(es->eventSourceType == UA_EVENTSOURCETYPE_CONNECTIONMANAGER &&
           UA_String_equal(&((UA_ConnectionManager *)es)->protocol, &protocol))
            mqtt = (UA_ConnectionManager *)es;
    }
    if(!mqtt) {
        fprintf(stderr, "the EventLoop has no MQTT ConnectionManager (library built without UA_ENABLE_MQTT?)\n");
        return UA_STATUSCODE_BADNOTSUPPORTED;
    }
    UA_String url = UA_STRING((char *)(uintptr_t)sub.opts->broker);
    sub.port = 1883;
    UA_StatusCode rc = UA_parseEndpointUrl(&url, &sub.host, &sub.port, NULL);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "cannot parse the broker URL %s\n", sub.opts->broker);
        return rc;
    }
    UA_Boolean subscribe = true;
    UA_String topic = UA_STRING((char *)(uintptr_t)sub.opts->topic);
    UA_KeyValuePair kvp[4];
    kvp[0].key = UA_QUALIFIEDNAME(0, "address");
    UA_Variant_setScalar(&kvp[0].value, &sub.host, &UA_TYPES[UA_TYPES_STRING]);
    kvp[1].key = UA_QUALIFIEDNAME(0, "port");
    UA_Variant_setScalar(&kvp[1].value, &sub.port, &UA_TYPES[UA_TYPES_UINT16]);
    kvp[2].key = UA_QUALIFIEDNAME(0, "topic");
    UA_Variant_setScalar(&kvp[2].value, &topic, &UA_TYPES[UA_TYPES_STRING]);
    kvp[3].key = UA_QUALIFIEDNAME(0, "subscribe");
    UA_Variant_setScalar(&kvp[3].value, &subscribe, &UA_TYPES[UA_TYPES_BOOLEAN]);
    UA_KeyValueMap params = {4, kvp};
    rc = mqtt->openConnection(mqtt, &params, server, NULL, onTopicEvent);
    if(rc != UA_STATUSCODE_GOOD)
        fprintf(stderr, "opening the MQTT connection: %s\n", UA_StatusCode_name(rc));
    return rc;
}

int main(int argc, char **argv) {
    PsOptions opts;
    if(!ps_parseArgs(argc, argv, false, &opts))
        return 2;
    memset(&sub, 0, sizeof(sub));
    sub.opts = &opts;
    ps_fillMetaData(&sub.metaData, (opts.fieldContentMask & UA_DATASETFIELDCONTENTMASK_RAWDATA) != 0);

    UA_Server *server = ps_newServer(opts.verbose);
    if(!server)
        return 1;
    int exitCode = 1;
    if(opts.viaReader && setupReader(server) != UA_STATUSCODE_GOOD)
        goto cleanup;

    char idText[128];
    ps_publisherIdText(&opts.publisherId, idText, sizeof(idText));
    printf("SUBSCRIBER broker=%s encoding=%s topic=%s publisherId=%s writerGroupId=%u dataSetWriterId=%u "
           "decode=%s\n", opts.broker, opts.json ? "json" : "uadp", opts.topic, idText,
           (unsigned)opts.writerGroupId, (unsigned)opts.dataSetWriterId, opts.viaReader ? "reader" : "direct");
    fflush(stdout);

    ps_onSignal(&stopRequested);
    if(UA_Server_run_startup(server) != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "server startup failed\n");
        goto cleanup;
    }
    UA_StatusCode rc = opts.viaReader ? UA_Server_enableAllPubSubComponents(server) : setupDirect(server);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "starting to subscribe: %s\n", UA_StatusCode_name(rc));
        UA_Server_run_shutdown(server);
        goto cleanup;
    }
    /* The SUBSCRIBE goes out once the broker connection is open (a few iterations); MQTT-C does
     * not report the SUBACK, so READY is printed after a short settling time. */
    UA_DateTime start = UA_DateTime_nowMonotonic();
    UA_DateTime readyAt = start + 300 * UA_DATETIME_MSEC;
    UA_DateTime deadline = start + (UA_DateTime)opts.timeoutS * UA_DATETIME_SEC;
    UA_Boolean ready = false;
    exitCode = 0;
    while(!stopRequested) {
        UA_Server_run_iterate(server, false);
        UA_DateTime now = UA_DateTime_nowMonotonic();
        if(!ready && now >= readyAt) {
            printf("READY\n");
            fflush(stdout);
            ready = true;
        }
        if(opts.count > 0 && sub.received >= opts.count)
            break;
        if(opts.count > 0 && opts.timeoutS > 0 && now >= deadline) {
            printf("TIMEOUT received=%lu of %lu\n", (unsigned long)sub.received, (unsigned long)opts.count);
            fflush(stdout);
            exitCode = 3;
            break;
        }
        UA_EventLoop *el = UA_Server_getConfig(server)->eventLoop;
        el->run(el, 20); /* wait up to 20 ms for network events */
    }
    shuttingDown = true;
    UA_Server_run_shutdown(server);
    if(exitCode == 0) {
        printf("DONE received=%lu\n", (unsigned long)sub.received);
        fflush(stdout);
    }

cleanup:
    UA_Server_delete(server);
    UA_DataSetMetaDataType_clear(&sub.metaData);
    return exitCode;
}
