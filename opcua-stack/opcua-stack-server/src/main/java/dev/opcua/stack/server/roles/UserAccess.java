package dev.opcua.stack.server.roles;

/**
 * The user-specific attributes derived from a node's permissions (Part 3, 5.6.2 UserAccessLevel and
 * 5.7 UserExecutable): the node's own bits less those the user's roles lack permission for.
 */
public final class UserAccess {

    /** AccessLevel bits (Part 3, 8.57). */
    private static final int CURRENT_READ = 0x01;
    private static final int CURRENT_WRITE = 0x02;
    private static final int HISTORY_READ = 0x04;
    private static final int HISTORY_WRITE = 0x08;
    private static final int STATUS_WRITE = 0x20;
    private static final int TIMESTAMP_WRITE = 0x40;
    private static final long HISTORY_CHANGES = Permission.INSERT_HISTORY.bit() | Permission.MODIFY_HISTORY.bit()
            | Permission.DELETE_HISTORY.bit();

    private UserAccess() {
    }

    /**
     * UserAccessLevel for a user with {@code permissions} (a PermissionType mask): CurrentRead needs
     * Read; CurrentWrite, StatusWrite and TimestampWrite need Write; HistoryRead needs ReadHistory;
     * HistoryWrite needs one of InsertHistory, ModifyHistory, DeleteHistory.
     */
    public static short accessLevel(short userAccessLevel, long permissions) {
        int level = userAccessLevel & 0xFF;
        if ((permissions & Permission.READ.bit()) == 0) {
            level &= ~CURRENT_READ;
        }
        if ((permissions & Permission.WRITE.bit()) == 0) {
            level &= ~(CURRENT_WRITE | STATUS_WRITE | TIMESTAMP_WRITE);
        }
        if ((permissions & Permission.READ_HISTORY.bit()) == 0) {
            level &= ~HISTORY_READ;
        }
        if ((permissions & HISTORY_CHANGES) == 0) {
            level &= ~HISTORY_WRITE;
        }
        return (short) level;
    }
}
