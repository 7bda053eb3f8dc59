package dev.opcua.stack.core.encoding.json;

/**
 * The two forms of UA JSON of OPC 10000-6 1.05, 5.4.1. They share every type's layout and differ only in what
 * they leave out and in a few descriptive extras:
 *
 * <table>
 * <caption>What differs</caption>
 * <tr><th>Value</th><th>{@link #COMPACT}</th><th>{@link #VERBOSE}</th></tr>
 * <tr><td>NULL field of a structure (5.4.2.1, 5.4.6)</td><td>omitted</td><td>JSON {@code null}</td></tr>
 * <tr><td>field with its type's default value (5.4.6)</td><td>omitted</td><td>written</td></tr>
 * <tr><td>null ExtensionObject field (5.4.2.16)</td><td>omitted</td><td>{@code {}}</td></tr>
 * <tr><td>StatusCode (5.4.2.12)</td><td>{@code {"Code":n}}</td><td>{@code {"Code":n,"Symbol":"Bad..."}}</td></tr>
 * <tr><td>enumeration (5.4.4)</td><td>JSON number</td><td>{@code "Name_Value"} string</td></tr>
 * <tr><td>structure with optional fields (5.4.7)</td><td>{@code "EncodingMask"} member</td>
 *     <td>no mask: presence of the member says it all</td></tr>
 * <tr><td>union (5.4.8)</td><td>{@code {"SwitchField":n,"Name":v}}</td><td>{@code {"Name":v}}</td></tr>
 * </table>
 *
 * <p>Array elements are always written (a NULL element as {@code null}), as are the members of the built-in
 * types' own objects by their rules (DataValue, DiagnosticInfo, LocalizedText omit defaults in both forms).
 * {@link JsonDecoder} reads both forms without being told which one it gets.
 */
public enum JsonEncoding {

    /** Leaves out NULL and default values; the form for OPC UA applications that know the types. */
    COMPACT,

    /**
     * Writes every field, NULL as JSON {@code null}, and adds descriptive text (StatusCode symbols, enumeration
     * names); the form for consumers without the type information (recommended for PubSub DataSetMessages,
     * Part 14, 7.2.5.4.2).
     */
    VERBOSE
}
