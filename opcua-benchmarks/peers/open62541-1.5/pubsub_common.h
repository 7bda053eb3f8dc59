/* Shared parts of pubsub_mqtt_publisher and pubsub_mqtt_subscriber: command line, the PublisherId,
 * the fixed data set (Counter, Temperature, Running, Label) and how its values follow from the
 * counter. */
#ifndef PUBSUB_COMMON_H
#define PUBSUB_COMMON_H

#include "open62541.h"

#define PS_FIELD_COUNT 4

/* Index of each field in the data set, in the order of the DataSetMetaData. */
enum { PS_COUNTER = 0, PS_TEMPERATURE = 1, PS_RUNNING = 2, PS_LABEL = 3 };

extern const char *const PS_FIELD_NAMES[PS_FIELD_COUNT];

typedef struct {
    const char *broker;           /* opc.mqtt://host:port */
    UA_Boolean json;              /* --encoding json|uadp */
    const char *topic;
    const char *metadataTopic;    /* publisher only; NULL when not given */
    UA_PublisherId publisherId;   /* shallow: a string id points into argv */
    UA_UInt16 writerGroupId;
    UA_UInt16 dataSetWriterId;
    UA_UInt32 intervalMs;
    UA_UInt32 count;              /* 0 = until SIGTERM/SIGINT */
    UA_UInt32 timeoutS;           /* subscriber only */
    int qos;
    long networkMask;             /* -1 = the program's default */
    long dataSetMask;             /* -1 = the program's default */
    UA_DataSetFieldContentMask fieldContentMask; /* --field-encoding */
    UA_Boolean viaReader;         /* subscriber: --decode reader|direct */
    UA_Boolean decodeGiven;
    UA_Boolean verbose;
} PsOptions;

/* Parses argv for the program (publisher when isPublisher). Prints the error and the usage and
 * returns false on a bad argument; exits 0 after --help. */
UA_Boolean ps_parseArgs(int argc, char **argv, UA_Boolean isPublisher, PsOptions *o);

/* "uint16:2234" style text of a PublisherId (buffer of at least 96 bytes). */
void ps_publisherIdText(const UA_PublisherId *id, char *buf, size_t size);

/* The DataSetMetaData both sides are configured with (caller clears it). maxStringLength of
 * Label is set when the fields are RawData encoded (open62541 requires it there). */
void ps_fillMetaData(UA_DataSetMetaDataType *md, UA_Boolean rawData);

/* The value of field `field` in message number `counter` (1, 2, ...), written into `out`. */
void ps_fieldValue(size_t field, UA_UInt32 counter, UA_Variant *out);

/* Appends " Name=value" for one field to the line buffer. */
void ps_appendField(char *line, size_t size, const char *name, const UA_Variant *value);

/* TransportProfileUri for the encoding. */
UA_String ps_transportProfile(UA_Boolean json);

/* A server for PubSub only: its OPC UA TCP listener on 127.0.0.1 at a free port, log level WARNING
 * (INFO with verbose); open62541 logs to stdout. */
UA_Server *ps_newServer(UA_Boolean verbose);

/* Name of a PubSubState (Part 14 PubSubState). */
const char *ps_stateName(UA_PubSubState state);

/* Installs SIGINT/SIGTERM handlers that set *flag to true. */
void ps_onSignal(volatile UA_Boolean *flag);

#endif
