package dev.opcua.stack.history.embedded;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.ModifiedValuesContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedModifiedValuesTest extends ModifiedValuesContract {

    @TempDir
    Path directory;

    @Override
    protected HistoryStore open() {
        return EmbeddedHistoryStore.open(directory, SyncPolicy.OPERATING_SYSTEM);
    }
}
