/**
 * UA JSON (OPC 10000-6 1.05, 5.4) in its CompactEncoding and VerboseEncoding forms: {@link
 * dev.opcua.stack.core.encoding.json.JsonEncoder} and {@link dev.opcua.stack.core.encoding.json.JsonDecoder}
 * implement the same {@link dev.opcua.stack.core.encoding.UaWriter}/{@link dev.opcua.stack.core.encoding.UaReader}
 * as UA Binary, so every generated and generic structure codec serves both encodings.
 *
 * <p>The core stays free of JSON libraries: a small writer ({@code JsonWriter}) and a bounded parser
 * ({@code JsonParser}, limits enforced while parsing) are part of this package.
 */
package dev.opcua.stack.core.encoding.json;
