/* PubSub publisher over MQTT on open62541 1.5.x: one PubSubConnection, one WriterGroup, one
 * DataSetWriter and a PublishedDataSet of four variables of the embedded server (Counter UInt32,
 * Temperature Double, Running Boolean, Label String). Message n (n = 1, 2, ...) carries
 * Counter=n, Temperature=20+n/10, Running=(n odd), Label="line-n".
 *
 * Each message is triggered by this program (UA_Server_triggerWriterGroupPublish) right after the
 * four variables were set for the next counter; the WriterGroup's own cyclic timer is pushed out to
 * one day so it never interferes. "SENT seq=<n> Counter=<n>" is printed once open62541 handed the
 * message to its MQTT client without an error. */
#include "pubsub_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER_MS (24.0 * 3600.0 * 1000.0)
#define FIRST_PUBLISH_DELAY_MS 300.0

static volatile UA_Boolean stopRequested = false;

typedef struct {
    PsOptions *opts;
    UA_NodeId fieldNodes[PS_FIELD_COUNT];
    UA_NodeId writerGroup;
    UA_UInt32 counter;
    UA_UInt32 sent;
    int exitCode;
    UA_Boolean done;
    UA_UInt64 timerId;
    UA_DateTime notBefore;
} Publisher;

static UA_StatusCode addFieldVariables(UA_Server *server, Publisher *p) {
    UA_NodeId folder;
    UA_ObjectAttributes oa = UA_ObjectAttributes_default;
    oa.displayName = UA_LOCALIZEDTEXT("", "PublishedFields");
    UA_StatusCode rc = UA_Server_addObjectNode(server, UA_NODEID_STRING(1, "PublishedFields"),
        UA_NS0ID(OBJECTSFOLDER), UA_NS0ID(ORGANIZES), UA_QUALIFIEDNAME(1, "PublishedFields"),
        UA_NS0ID(BASEOBJECTTYPE), oa, NULL, &folder);
    if(rc != UA_STATUSCODE_GOOD)
        return rc;
    const UA_DataType *types[PS_FIELD_COUNT] = {&UA_TYPES[UA_TYPES_UINT32], &UA_TYPES[UA_TYPES_DOUBLE],
                                                &UA_TYPES[UA_TYPES_BOOLEAN], &UA_TYPES[UA_TYPES_STRING]};
    for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
        UA_VariableAttributes va = UA_VariableAttributes_default;
        va.displayName = UA_LOCALIZEDTEXT("", (char *)(uintptr_t)PS_FIELD_NAMES[i]);
        va.dataType = types[i]->typeId;
        va.valueRank = UA_VALUERANK_SCALAR;
        ps_fieldValue(i, 0, &va.value); /* counter 0 until the first message */
        rc = UA_Server_addVariableNode(server, UA_NODEID_STRING(1, (char *)(uintptr_t)PS_FIELD_NAMES[i]),
            folder, UA_NS0ID(HASCOMPONENT), UA_QUALIFIEDNAME(1, (char *)(uintptr_t)PS_FIELD_NAMES[i]),
            UA_NS0ID(BASEDATAVARIABLETYPE), va, NULL, &p->fieldNodes[i]);
        UA_Variant_clear(&va.value);
        if(rc != UA_STATUSCODE_GOOD)
            return rc;
    }
    return UA_STATUSCODE_GOOD;
}

static UA_StatusCode configurePubSub(UA_Server *server, Publisher *p) {
    PsOptions *o = p->opts;

    /* Connection: broker address, transport profile (encoding) and PublisherId */
    UA_PubSubConnectionConfig cc;
    memset(&cc, 0, sizeof(cc));
    cc.name = UA_STRING("InteropMqttPublisher");
    cc.enabled = false; /* everything is enabled after the server started */
    cc.transportProfileUri = ps_transportProfile(o->json);
    UA_NetworkAddressUrlDataType address = {UA_STRING_NULL, UA_STRING((char *)(uintptr_t)o->broker)};
    UA_Variant_setScalar(&cc.address, &address, &UA_TYPES[UA_TYPES_NETWORKADDRESSURLDATATYPE]);
    cc.publisherId = o->publisherId;
    UA_NodeId connection;
    UA_StatusCode rc = UA_Server_addPubSubConnection(server, &cc, &connection);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addPubSubConnection: %s\n", UA_StatusCode_name(rc));
        return rc;
    }

    /* PublishedDataSet with the four variables, in the order of PS_FIELD_NAMES */
    UA_PublishedDataSetConfig pdsc;
    memset(&pdsc, 0, sizeof(pdsc));
    pdsc.publishedDataSetType = UA_PUBSUB_DATASET_PUBLISHEDITEMS;
    pdsc.name = UA_STRING("InteropDataSet");
    UA_NodeId pds;
    UA_AddPublishedDataSetResult pr = UA_Server_addPublishedDataSet(server, &pdsc, &pds);
    if(pr.addResult != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addPublishedDataSet: %s\n", UA_StatusCode_name(pr.addResult));
        return pr.addResult;
    }
    for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
        UA_DataSetFieldConfig fc;
        memset(&fc, 0, sizeof(fc));
        fc.dataSetFieldType = UA_PUBSUB_DATASETFIELD_VARIABLE;
        fc.field.variable.fieldNameAlias = UA_STRING((char *)(uintptr_t)PS_FIELD_NAMES[i]);
        fc.field.variable.publishParameters.publishedVariable = p->fieldNodes[i];
        fc.field.variable.publishParameters.attributeId = UA_ATTRIBUTEID_VALUE;
        if(i == PS_LABEL && (o->fieldContentMask & UA_DATASETFIELDCONTENTMASK_RAWDATA))
            fc.field.variable.maxStringLength = 32;
        UA_DataSetFieldResult fr = UA_Server_addDataSetField(server, pds, &fc, NULL);
        if(fr.result != UA_STATUSCODE_GOOD) {
            fprintf(stderr, "addDataSetField %s: %s\n", PS_FIELD_NAMES[i], UA_StatusCode_name(fr.result));
            return fr.result;
        }
    }

    /* WriterGroup: WriterGroupId, encoding and NetworkMessage content, the MQTT topic */
    UA_WriterGroupConfig wgc;
    memset(&wgc, 0, sizeof(wgc));
    wgc.name = UA_STRING("InteropWriterGroup");
    wgc.enabled = false; /* a DataSetWriter can only be added to a disabled WriterGroup */
    wgc.writerGroupId = o->writerGroupId;
    wgc.publishingInterval = NEVER_MS;
    wgc.encodingMimeType = o->json ? UA_PUBSUB_ENCODING_JSON : UA_PUBSUB_ENCODING_UADP;
    UA_UadpWriterGroupMessageDataType uadpGroup;
    UA_JsonWriterGroupMessageDataType jsonGroup;
    if(o->json) {
        UA_JsonWriterGroupMessageDataType_init(&jsonGroup);
        jsonGroup.networkMessageContentMask = o->networkMask >= 0
            ? (UA_JsonNetworkMessageContentMask)o->networkMask
            : (UA_JsonNetworkMessageContentMask)(UA_JSONNETWORKMESSAGECONTENTMASK_NETWORKMESSAGEHEADER |
                                                 UA_JSONNETWORKMESSAGECONTENTMASK_DATASETMESSAGEHEADER |
                                                 UA_JSONNETWORKMESSAGECONTENTMASK_PUBLISHERID);
        UA_ExtensionObject_setValueNoDelete(&wgc.messageSettings, &jsonGroup,
                                            &UA_TYPES[UA_TYPES_JSONWRITERGROUPMESSAGEDATATYPE]);
    } else {
        UA_UadpWriterGroupMessageDataType_init(&uadpGroup);
        uadpGroup.networkMessageContentMask = o->networkMask >= 0
            ? (UA_UadpNetworkMessageContentMask)o->networkMask
            : (UA_UadpNetworkMessageContentMask)(UA_UADPNETWORKMESSAGECONTENTMASK_PUBLISHERID |
                                                 UA_UADPNETWORKMESSAGECONTENTMASK_GROUPHEADER |
                                                 UA_UADPNETWORKMESSAGECONTENTMASK_WRITERGROUPID |
                                                 UA_UADPNETWORKMESSAGECONTENTMASK_SEQUENCENUMBER |
                                                 UA_UADPNETWORKMESSAGECONTENTMASK_PAYLOADHEADER);
        UA_ExtensionObject_setValueNoDelete(&wgc.messageSettings, &uadpGroup,
                                            &UA_TYPES[UA_TYPES_UADPWRITERGROUPMESSAGEDATATYPE]);
    }
    UA_BrokerWriterGroupTransportDataType groupTransport;
    UA_BrokerWriterGroupTransportDataType_init(&groupTransport);
    groupTransport.queueName = UA_STRING((char *)(uintptr_t)o->topic);
    groupTransport.requestedDeliveryGuarantee = UA_BROKERTRANSPORTQUALITYOFSERVICE_BESTEFFORT;
    UA_ExtensionObject_setValueNoDelete(&wgc.transportSettings, &groupTransport,
                                        &UA_TYPES[UA_TYPES_BROKERWRITERGROUPTRANSPORTDATATYPE]);
    rc = UA_Server_addWriterGroup(server, connection, &wgc, &p->writerGroup);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "addWriterGroup: %s\n", UA_StatusCode_name(rc));
        return rc;
    }

    /* DataSetWriter: DataSetWriterId, key frames only, DataSetMessage header content */
    UA_DataSetWriterConfig dswc;
    memset(&dswc, 0, sizeof(dswc));
    dswc.name = UA_STRING("InteropDataSetWriter");
    dswc.enabled = false;
    dswc.dataSetWriterId = o->dataSetWriterId;
    dswc.keyFrameCount = 1;
    dswc.dataSetFieldContentMask = o->fieldContentMask;
    UA_UadpDataSetWriterMessageDataType uadpWriter;
    UA_JsonDataSetWriterMessageDataType jsonWriter;
    if(o->json) {
        UA_JsonDataSetWriterMessageDataType_init(&jsonWriter);
        jsonWriter.dataSetMessageContentMask = o->dataSetMask >= 0
            ? (UA_JsonDataSetMessageContentMask)o->dataSetMask
            : (UA_JsonDataSetMessageContentMask)(UA_JSONDATASETMESSAGECONTENTMASK_DATASETWRITERID |
                                                 UA_JSONDATASETMESSAGECONTENTMASK_SEQUENCENUMBER |
                                                 UA_JSONDATASETMESSAGECONTENTMASK_METADATAVERSION |
                                                 UA_JSONDATASETMESSAGECONTENTMASK_TIMESTAMP |
                                                 UA_JSONDATASETMESSAGECONTENTMASK_STATUS |
                                                 UA_JSONDATASETMESSAGECONTENTMASK_MESSAGETYPE);
        UA_ExtensionObject_setValueNoDelete(&dswc.messageSettings, &jsonWriter,
                                            &UA_TYPES[UA_TYPES_JSONDATASETWRITERMESSAGEDATATYPE]);
    } else {
        UA_UadpDataSetWriterMessageDataType_init(&uadpWriter);
        uadpWriter.dataSetMessageContentMask = o->dataSetMask >= 0
            ? (UA_UadpDataSetMessageContentMask)o->dataSetMask
            : (UA_UadpDataSetMessageContentMask)(UA_UADPDATASETMESSAGECONTENTMASK_SEQUENCENUMBER |
                                                 UA_UADPDATASETMESSAGECONTENTMASK_TIMESTAMP);
        UA_ExtensionObject_setValueNoDelete(&dswc.messageSettings, &uadpWriter,
                                            &UA_TYPES[UA_TYPES_UADPDATASETWRITERMESSAGEDATATYPE]);
    }
    UA_BrokerDataSetWriterTransportDataType writerTransport;
    UA_BrokerDataSetWriterTransportDataType_init(&writerTransport);
    writerTransport.queueName = UA_STRING((char *)(uintptr_t)o->topic);
    writerTransport.requestedDeliveryGuarantee = UA_BROKERTRANSPORTQUALITYOFSERVICE_BESTEFFORT;
    if(o->metadataTopic)
        writerTransport.metaDataQueueName = UA_STRING((char *)(uintptr_t)o->metadataTopic);
    UA_ExtensionObject_setValueNoDelete(&dswc.transportSettings, &writerTransport,
                                        &UA_TYPES[UA_TYPES_BROKERDATASETWRITERTRANSPORTDATATYPE]);
    rc = UA_Server_addDataSetWriter(server, p->writerGroup, pds, &dswc, NULL);
    if(rc != UA_STATUSCODE_GOOD)
        fprintf(stderr, "addDataSetWriter: %s\n", UA_StatusCode_name(rc));
    return rc;
}

/* Cyclic: set the variables for the next counter, publish, report. */
static void publishNext(UA_Server *server, void *data) {
    Publisher *p = (Publisher *)data;
    if(p->done || UA_DateTime_nowMonotonic() < p->notBefore)
        return;
    UA_PubSubState state;
    if(UA_Server_getWriterGroupState(server, p->writerGroup, &state) != UA_STATUSCODE_GOOD ||
       state != UA_PUBSUBSTATE_OPERATIONAL) {
        if(p->opts->verbose)
            fprintf(stderr, "WriterGroup not operational yet (%s)\n", ps_stateName(state));
        return;
    }

    UA_UInt32 next = p->counter + 1;
    for(size_t i = 0; i < PS_FIELD_COUNT; i++) {
        UA_Variant v;
        ps_fieldValue(i, next, &v);
        UA_StatusCode rc = UA_Server_writeValue(server, p->fieldNodes[i], v);
        UA_Variant_clear(&v);
        if(rc != UA_STATUSCODE_GOOD) {
            fprintf(stderr, "writing %s: %s\n", PS_FIELD_NAMES[i], UA_StatusCode_name(rc));
            p->exitCode = 1;
            p->done = true;
            return;
        }
    }
    UA_StatusCode rc = UA_Server_triggerWriterGroupPublish(server, p->writerGroup);
    if(rc == UA_STATUSCODE_GOOD)
        rc = UA_Server_getWriterGroupState(server, p->writerGroup, &state);
    if(rc != UA_STATUSCODE_GOOD || state != UA_PUBSUBSTATE_OPERATIONAL) {
        /* open62541 puts the WriterGroup into Error when sending fails (and does not reconnect) */
        printf("FAILED seq=%lu %s\n", (unsigned long)next,
               rc != UA_STATUSCODE_GOOD ? UA_StatusCode_name(rc) : ps_stateName(state));
        fflush(stdout);
        p->exitCode = 1;
        p->done = true;
        return;
    }
    p->counter = next;
    p->sent++;
    printf("SENT seq=%lu Counter=%lu\n", (unsigned long)p->sent, (unsigned long)next);
    fflush(stdout);
    if(p->opts->count > 0 && p->sent >= p->opts->count)
        p->done = true;
}

int main(int argc, char **argv) {
    PsOptions opts;
    if(!ps_parseArgs(argc, argv, true, &opts))
        return 2;

    UA_Server *server = ps_newServer(opts.verbose);
    if(!server)
        return 1;
    /* open62541's default (enableDeltaFrames = true) sends UADP key and delta frames in turn even
     * with KeyFrameCount 1, and its own DataSetReader drops delta frames: key frames only. */
    UA_Server_getConfig(server)->pubSubConfig.enableDeltaFrames = false;

    Publisher p;
    memset(&p, 0, sizeof(p));
    p.opts = &opts;
    int exitCode = 1;
    if(addFieldVariables(server, &p) != UA_STATUSCODE_GOOD || configurePubSub(server, &p) != UA_STATUSCODE_GOOD)
        goto cleanup;

    char idText[128];
    ps_publisherIdText(&opts.publisherId, idText, sizeof(idText));
    printf("PUBLISHER broker=%s encoding=%s topic=%s publisherId=%s writerGroupId=%u dataSetWriterId=%u "
           "intervalMs=%lu\n", opts.broker, opts.json ? "json" : "uadp", opts.topic, idText,
           (unsigned)opts.writerGroupId, (unsigned)opts.dataSetWriterId, (unsigned long)opts.intervalMs);
    fflush(stdout);

    ps_onSignal(&stopRequested);
    if(UA_Server_run_startup(server) != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "server startup failed\n");
        goto cleanup;
    }
    UA_StatusCode rc = UA_Server_enableAllPubSubComponents(server);
    if(rc != UA_STATUSCODE_GOOD) {
        fprintf(stderr, "enabling the PubSub components: %s\n", UA_StatusCode_name(rc));
        UA_Server_run_shutdown(server);
        goto cleanup;
    }
    /* Give the broker connection a moment to open before the first message */
    p.notBefore = UA_DateTime_nowMonotonic() + (UA_DateTime)(FIRST_PUBLISH_DELAY_MS * UA_DATETIME_MSEC);
    UA_Server_addRepeatedCallback(server, publishNext, &p, (UA_Double)opts.intervalMs, &p.timerId);
    while(!stopRequested && !p.done)
        UA_Server_run_iterate(server, true);
    UA_Server_removeCallback(server, p.timerId);
    /* A few more rounds so the last PUBLISH leaves before the DISCONNECT */
    for(int i = 0; i < 5; i++)
        UA_Server_run_iterate(server, false);
    UA_Server_run_shutdown(server);
    exitCode = p.exitCode;
    if(exitCode == 0) {
        printf("DONE sent=%lu\n", (unsigned long)p.sent);
        fflush(stdout);
    }

cleanup:
    UA_Server_delete(server);
    return exitCode;
}
