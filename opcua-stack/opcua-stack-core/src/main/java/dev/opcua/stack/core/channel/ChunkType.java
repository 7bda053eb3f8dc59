package dev.opcua.stack.core.channel;

/** The fourth header byte (Part 6, 6.7.2.2): final, intermediate or abort chunk. */
public enum ChunkType {
    /** The last chunk of a message ('F'); always this for HEL, ACK, ERR, OPN and CLO. */
    FINAL('F'),
    /** An intermediate chunk ('C'). */
    INTERMEDIATE('C'),
    /** The last chunk of an aborted message ('A'): its body is an error code and a reason (Part 6, 6.7.3). */
    ABORT('A');

    private final byte ascii;

    ChunkType(char ascii) {
        this.ascii = (byte) ascii;
    }

    public byte ascii() {
        return ascii;
    }

    /** The chunk type of a header byte, or null when it is none of 'F', 'C', 'A'. */
    public static ChunkType fromByte(int b) {
        switch (b) {
            case 'F':
                return FINAL;
            case 'C':
                return INTERMEDIATE;
            case 'A':
                return ABORT;
            default:
                return null;
        }
    }
}
