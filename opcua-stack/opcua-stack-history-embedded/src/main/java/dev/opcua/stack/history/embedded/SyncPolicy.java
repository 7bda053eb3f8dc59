package dev.opcua.stack.history.embedded;

/** When the embedded store forces its file to the disk (fsync), beyond writing it to the operating system. */
public enum SyncPolicy {
    /**
     * After every commit, before the futures of its operations complete: what was acknowledged survives a
     * power loss as well as a crash of the process. Commits are grouped, so this costs one fsync per batch.
     */
    EVERY_COMMIT,
    /**
     * Never explicitly (the operating system writes back in its own time, and at close): what was
     * acknowledged survives a crash or kill of the process, not a power loss or a crash of the machine.
     */
    OPERATING_SYSTEM
}
