#include "pubsub_common.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const PS_FIELD_NAMES[PS_FIELD_COUNT] = {"Counter", "Temperature", "Running", "Label"};

static const char *PUBLISHER_USAGE =
    "usage: pubsub_mqtt_publisher --broker opc.mqtt://HOST:PORT --encoding json|uadp\n"
    "         --publisher-id ID --writer-group-id N --dataset-writer-id N --topic TOPIC\n"
    "         [--interval-ms N] [--count N] [--metadata-topic TOPIC] [--qos 0]\n"
    "         [--field-encoding variant|datavalue|raw] [--network-mask N] [--dataset-mask N]\n"
    "         [--verbose]\n"
    "  ID: digits (UInt16 when <= 65535, else UInt32/UInt64), any other text (String), or a\n"
    "      forced type: byte:N uint16:N uint32:N uint64:N string:TEXT\n";

static const char *SUBSCRIBER_USAGE =
    "usage: pubsub_mqtt_subscriber --broker opc.mqtt://HOST:PORT --encoding json|uadp\n"
    "         --publisher-id ID --writer-group-id N --dataset-writer-id N --topic TOPIC\n"
    "         [--count N] [--timeout-s N] [--decode reader|direct]\n"
    "         [--field-encoding variant|datavalue|raw] [--verbose]\n"
    "  ID as for the publisher (the type must match what the publisher sends).\n"
    "  --decode: reader = open62541's DataSetReader with target variables (default for uadp);\n"
    "            direct = the MQTT topic read directly and decoded with\n"
    "            UA_NetworkMessage_decodeBinary/decodeJson (default for json: the\n"
    "            DataSetReader of open62541 1.5.7 drops every JSON message)\n";

static UA_Boolean parseUnsigned(const char *text, unsigned long long max, unsigned long long *out) {
    if(!text || !*text || *text == '-' || *text == '+')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if(errno != 0 || *end != '\0' || v > max)
        return false;
    *out = v;
    return true;
}

static UA_Boolean parsePublisherId(const char *text, UA_PublisherId *id) {
    unsigned long long v;
    memset(id, 0, sizeof(*id));
    const char *colon = strchr(text, ':');
    if(colon) {
        size_t prefix = (size_t)(colon - text);
        const char *rest = colon + 1;
        if(prefix == 6 && strncmp(text, "string", 6) == 0) {
            if(!*rest)
                return false;
            id->idType = UA_PUBLISHERIDTYPE_STRING;
            id->id.string = UA_STRING((char *)(uintptr_t)rest);
            return true;
        }
        if(prefix == 4 && strncmp(text, "byte", 4) == 0 && parseUnsigned(rest, UA_BYTE_MAX, &v)) {
            id->idType = UA_PUBLISHERIDTYPE_BYTE;
            id->id.byte = (UA_Byte)v;
            return true;
        }
        if(prefix == 6 && strncmp(text, "uint16", 6) == 0 && parseUnsigned(rest, UA_UINT16_MAX, &v)) {
            id->idType = UA_PUBLISHERIDTYPE_UINT16;
            id->id.uint16 = (UA_UInt16)v;
            return true;
        }
        if(prefix == 6 && strncmp(text, "uint32", 6) == 0 && parseUnsigned(rest, UA_UINT32_MAX, &v)) {
            id->idType = UA_PUBLISHERIDTYPE_UINT32;
            id->id.uint32 = (UA_UInt32)v;
            return true;
        }
        if(prefix == 6 && strncmp(text, "uint64", 6) == 0 && parseUnsigned(rest, UA_UINT64_MAX, &v)) {
            id->idType = UA_PUBLISHERIDTYPE_UINT64;
            id->id.uint64 = (UA_UInt64)v;
            return true;
        }
        if(prefix == 4 || prefix == 6)
            return false; /* a known-looking prefix with a bad number */
    }
    if(*text >= '0' && *text <= '9' && parseUnsigned(text, UA_UINT64_MAX, &v)) {
        if(v <= UA_UINT16_MAX) {
            id->idType = UA_PUBLISHERIDTYPE_UINT16;
            id->id.uint16 = (UA_UInt16)v;
        } else if(v <= UA_UINT32_MAX) {
            id->idType = UA_PUBLISHERIDTYPE_UINT32;
            id->id.uint32 = (UA_UInt32)v;
        } else {
            id->idType = UA_PUBLISHERIDTYPE_UINT64;
            id->id.uint64 = (UA_UInt64)v;
        }
        return true;
    }
    if(!*text)
        return false;
    id->idType = UA_PUBLISHERIDTYPE_STRING;
    id->id.string = UA_STRING((char *)(uintptr_t)text);
    return true;
}

void ps_publisherIdText(const UA_PublisherId *id, char *buf, size_t size) {
    switch(id->idType) {
    case UA_PUBLISHERIDTYPE_BYTE: snprintf(buf, size, "byte:%u", (unsigned)id->id.byte); break;
    case UA_PUBLISHERIDTYPE_UINT16: snprintf(buf, size, "uint16:%u", (unsigned)id->id.uint16); break;
    case UA_PUBLISHERIDTYPE_UINT32: snprintf(buf, size, "uint32:%lu", (unsigned long)id->id.uint32); break;
    case UA_PUBLISHERIDTYPE_UINT64:
        snprintf(buf, size, "uint64:%llu", (unsigned long long)id->id.uint64);
        break;
    case UA_PUBLISHERIDTYPE_STRING:
        snprintf(buf, size, "string:%.*s", (int)id->id.string.length, (const char *)id->id.string.data);
        break;
    default: snprintf(buf, size, "?"); break;
    }
}

static UA_Boolean bad(const char *usage, const char *fmt, const char *what) {
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
    fputs(usage, stderr);
    return false;
}

UA_Boolean ps_parseArgs(int argc, char **argv, UA_Boolean isPublisher, PsOptions *o) {
    const char *usage = isPublisher ? PUBLISHER_USAGE : SUBSCRIBER_USAGE;
    memset(o, 0, sizeof(*o));
    o->intervalMs = 500;
    o->timeoutS = 30;
    o->networkMask = -1;
    o->dataSetMask = -1;
    UA_Boolean haveEncoding = false, havePublisherId = false, haveGroup = false, haveWriter = false;
    unsigned long long v;

    for(int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if(strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
        if(strcmp(arg, "--verbose") == 0) {
            o->verbose = true;
            continue;
        }
        if(i + 1 >= argc)
            return bad(usage, "missing value after %s", arg);
        const char *val = argv[++i];
        if(strcmp(arg, "--broker") == 0) {
            if(strncmp(val, "opc.mqtt://", 11) != 0)
                return bad(usage, "--broker must be opc.mqtt://HOST:PORT, not '%s'", val);
            o->broker = val;
        } else if(strcmp(arg, "--encoding") == 0) {
            if(strcmp(val, "json") == 0)
                o->json = true;
            else if(strcmp(val, "uadp") == 0)
                o->json = false;
            else
                return bad(usage, "--encoding is json or uadp, not '%s'", val);
            haveEncoding = true;
        } else if(strcmp(arg, "--topic") == 0) {
            o->topic = val;
        } else if(strcmp(arg, "--publisher-id") == 0) {
            if(!parsePublisherId(val, &o->publisherId))
                return bad(usage, "bad --publisher-id '%s'", val);
            havePublisherId = true;
        } else if(strcmp(arg, "--writer-group-id") == 0) {
            if(!parseUnsigned(val, UA_UINT16_MAX, &v))
                return bad(usage, "bad --writer-group-id '%s' (UInt16)", val);
            o->writerGroupId = (UA_UInt16)v;
            haveGroup = true;
        } else if(strcmp(arg, "--dataset-writer-id") == 0) {
            if(!parseUnsigned(val, UA_UINT16_MAX, &v))
                return bad(usage, "bad --dataset-writer-id '%s' (UInt16)", val);
            o->dataSetWriterId = (UA_UInt16)v;
            haveWriter = true;
        } else if(strcmp(arg, "--count") == 0) {
            if(!parseUnsigned(val, UA_UINT32_MAX, &v))
                return bad(usage, "bad --count '%s'", val);
            o->count = (UA_UInt32)v;
        } else if(strcmp(arg, "--field-encoding") == 0) {
            if(strcmp(val, "variant") == 0)
                o->fieldContentMask = UA_DATASETFIELDCONTENTMASK_NONE;
            else if(strcmp(val, "datavalue") == 0)
                o->fieldContentMask = UA_DATASETFIELDCONTENTMASK_STATUSCODE |
                                      UA_DATASETFIELDCONTENTMASK_SOURCETIMESTAMP;
            else if(strcmp(val, "raw") == 0)
                o->fieldContentMask = UA_DATASETFIELDCONTENTMASK_RAWDATA;
            else
                return bad(usage, "--field-encoding is variant, datavalue or raw, not '%s'", val);
        } else if(isPublisher && strcmp(arg, "--interval-ms") == 0) {
            if(!parseUnsigned(val, 3600000, &v) || v < 10)
                return bad(usage, "bad --interval-ms '%s' (10 .. 3600000)", val);
            o->intervalMs = (UA_UInt32)v;
        } else if(isPublisher && strcmp(arg, "--metadata-topic") == 0) {
            o->metadataTopic = val;
        } else if(isPublisher && strcmp(arg, "--qos") == 0) {
            if(strcmp(val, "0") == 0)
                o->qos = 0;
            else if(strcmp(val, "1") == 0)
                return bad(usage, "--qos %s: open62541 1.5.7 publishes and subscribes with MQTT "
                           "QoS 0 only (arch/common/eventloop_mqtt.c)", val);
            else
                return bad(usage, "bad --qos '%s'", val);
        } else if(isPublisher && strcmp(arg, "--network-mask") == 0) {
            if(!parseUnsigned(val, UA_UINT32_MAX, &v))
                return bad(usage, "bad --network-mask '%s'", val);
            o->networkMask = (long)v;
        } else if(isPublisher && strcmp(arg, "--dataset-mask") == 0) {
            if(!parseUnsigned(val, UA_UINT32_MAX, &v))
                return bad(usage, "bad --dataset-mask '%s'", val);
            o->dataSetMask = (long)v;
        } else if(!isPublisher && strcmp(arg, "--timeout-s") == 0) {
            if(!parseUnsigned(val, 86400, &v))
                return bad(usage, "bad --timeout-s '%s'", val);
            o->timeoutS = (UA_UInt32)v;
        } else if(!isPublisher && strcmp(arg, "--decode") == 0) {
            if(strcmp(val, "reader") == 0)
                o->viaReader = true;
            else if(strcmp(val, "direct") == 0)
                o->viaReader = false;
            else
                return bad(usage, "--decode is reader or direct, not '%s'", val);
            o->decodeGiven = true;
        } else {
            return bad(usage, "unknown argument %s", arg);
        }
    }
    if(!o->broker)
        return bad(usage, "%s", "--broker is required");
    if(!haveEncoding)
        return bad(usage, "%s", "--encoding is required");
    if(!o->topic || !*o->topic)
        return bad(usage, "%s", "--topic is required");
    if(!havePublisherId || !haveGroup || !haveWriter)
        return bad(usage, "%s", "--publisher-id, --writer-group-id and --dataset-writer-id are required");
    if(!o->decodeGiven)
        o->viaReader = !o->json;
    return true;
}

static void setField(UA_FieldMetaData *f, const char *name, const UA_DataType *type) {
    UA_FieldMetaData_init(f);
    f->name = UA_STRING_ALLOC(name);
    f->dataType = type->typeId; /* ns0 numeric: no allocation */
    f->builtInType = (UA_Byte)(type->typeKind + 1); /* the builtin type id (Boolean = 1) */
    f->valueRank = UA_VALUERANK_SCALAR;
}

void ps_fillMetaData(UA_DataSetMetaDataType *md, UA_Boolean rawData) {
    UA_DataSetMetaDataType_init(md);
    md->name = UA_STRING_ALLOC("InteropDataSet");
    md->fields = (UA_FieldMetaData *)UA_Array_new(PS_FIELD_COUNT, &UA_TYPES[UA_TYPES_FIELDMETADATA]);
    md->fieldsSize = PS_FIELD_COUNT;
    setField(&md->fields[PS_COUNTER], PS_FIELD_NAMES[PS_COUNTER], &UA_TYPES[UA_TYPES_UINT32]);
    setField(&md->fields[PS_TEMPERATURE], PS_FIELD_NAMES[PS_TEMPERATURE], &UA_TYPES[UA_TYPES_DOUBLE]);
    setField(&md->fields[PS_RUNNING], PS_FIELD_NAMES[PS_RUNNING], &UA_TYPES[UA_TYPES_BOOLEAN]);
    setField(&md->fields[PS_LABEL], PS_FIELD_NAMES[PS_LABEL], &UA_TYPES[UA_TYPES_STRING]);
    if(rawData)
        md->fields[PS_LABEL].maxStringLength = 32;
}

void ps_fieldValue(size_t field, UA_UInt32 counter, UA_Variant *out) {
    UA_Variant_init(out);
    switch(field) {
    case PS_COUNTER:
        UA_Variant_setScalarCopy(out, &counter, &UA_TYPES[UA_TYPES_UINT32]);
        break;
    case PS_TEMPERATURE: {
        UA_Double t = 20.0 + (UA_Double)counter / 10.0;
        UA_Variant_setScalarCopy(out, &t, &UA_TYPES[UA_TYPES_DOUBLE]);
        break;
    }
    case PS_RUNNING: {
        UA_Boolean running = (counter % 2) == 1; /* true on odd counters */
        UA_Variant_setScalarCopy(out, &running, &UA_TYPES[UA_TYPES_BOOLEAN]);
        break;
    }
    case PS_LABEL: {
        char text[32];
        snprintf(text, sizeof(text), "line-%lu", (unsigned long)counter);
        UA_String label = UA_STRING(text);
        UA_Variant_setScalarCopy(out, &label, &UA_TYPES[UA_TYPES_STRING]);
        break;
    }
    default:
        break;
    }
}

void ps_appendField(char *line, size_t size, const char *name, const UA_Variant *value) {
    size_t used = strlen(line);
    if(used >= size)
        return;
    char *p = line + used;
    size_t left = size - used;
    if(!value || UA_Variant_isEmpty(value) || !UA_Variant_isScalar(value)) {
        snprintf(p, left, " %s=<absent>", name);
        return;
    }
    const UA_DataType *t = value->type;
    if(t == &UA_TYPES[UA_TYPES_UINT32])
        snprintf(p, left, " %s=%lu", name, (unsigned long)*(UA_UInt32 *)value->data);
    else if(t == &UA_TYPES[UA_TYPES_DOUBLE])
        snprintf(p, left, " %s=%.15g", name, *(UA_Double *)value->data);
    else if(t == &UA_TYPES[UA_TYPES_BOOLEAN])
        snprintf(p, left, " %s=%s", name, *(UA_Boolean *)value->data ? "true" : "false");
    else if(t == &UA_TYPES[UA_TYPES_STRING]) {
        UA_String *s = (UA_String *)value->data;
        snprintf(p, left, " %s=%.*s", name, (int)s->length, (const char *)s->data);
    } else {
        /* Unexpected type: print it with open62541's own printer */
        UA_String printed = UA_STRING_NULL;
        UA_print(value, &UA_TYPES[UA_TYPES_VARIANT], &printed);
        snprintf(p, left, " %s=<%s %.*s>", name, t->typeName, (int)printed.length,
                 (const char *)printed.data);
        UA_String_clear(&printed);
    }
}

UA_String ps_transportProfile(UA_Boolean json) {
    return json ? UA_STRING("http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-json")
                : UA_STRING("http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-uadp");
}

UA_Server *ps_newServer(UA_Boolean verbose) {
    UA_ServerConfig config;
    memset(&config, 0, sizeof(config));
    config.logging = UA_Log_Stdout_new(verbose ? UA_LOGLEVEL_INFO : UA_LOGLEVEL_WARNING);
    /* port 0: the embedded server is not used by the peers, any free port will do */
    if(UA_ServerConfig_setMinimal(&config, 0, NULL) != UA_STATUSCODE_GOOD) {
        UA_ServerConfig_clear(&config);
        return NULL;
    }
    UA_String local = UA_STRING("opc.tcp://127.0.0.1:0");
    UA_Array_delete(config.serverUrls, config.serverUrlsSize, &UA_TYPES[UA_TYPES_STRING]);
    config.serverUrls = NULL;
    config.serverUrlsSize = 0;
    UA_Array_copy(&local, 1, (void **)&config.serverUrls, &UA_TYPES[UA_TYPES_STRING]);
    config.serverUrlsSize = 1;
    return UA_Server_newWithConfig(&config);
}

const char *ps_stateName(UA_PubSubState state) {
    switch(state) {
    case UA_PUBSUBSTATE_DISABLED: return "Disabled";
    case UA_PUBSUBSTATE_PAUSED: return "Paused";
    case UA_PUBSUBSTATE_OPERATIONAL: return "Operational";
    case UA_PUBSUBSTATE_ERROR: return "Error";
    case UA_PUBSUBSTATE_PREOPERATIONAL: return "PreOperational";
    default: return "Unknown";
    }
}

static volatile UA_Boolean *signalFlag;

static void onSignal(int sig) {
    (void)sig;
    if(signalFlag)
        *signalFlag = true;
}

void ps_onSignal(volatile UA_Boolean *flag) {
    signalFlag = flag;
    signal(SIGINT, onSignal);
    signal(SIGTERM, onSignal);
}
