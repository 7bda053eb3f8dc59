package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A PubSubConnection (Part 14, 6.2.7): one publisher identity on one transport (one broker) with the writer
 * groups it publishes and the readers it subscribes.
 *
 * @param name the connection's name, for logs, meters and the information model
 * @param publisherId this application's PublisherId on the connection
 * @param writerGroups what it publishes; ids and names unique
 * @param readers what it reads
 */
public record PubSubConnectionConfig(String name, PublisherId publisherId, List<WriterGroupConfig> writerGroups,
        List<DataSetReaderConfig> readers) {

    public PubSubConnectionConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a PubSubConnection needs a name");
        }
        Objects.requireNonNull(publisherId, "publisherId of PubSubConnection " + name);
        writerGroups = writerGroups == null ? List.of() : List.copyOf(writerGroups);
        readers = readers == null ? List.of() : List.copyOf(readers);
        Set<Integer> groupIds = new HashSet<>();
        Set<String> groupNames = new HashSet<>();
        Set<Integer> writerIds = new HashSet<>();
        for (WriterGroupConfig group : writerGroups) {
            if (!groupIds.add(group.id()) || !groupNames.add(group.name())) {
                throw new IllegalArgumentException("PubSubConnection " + name + " has two WriterGroups with id "
                        + group.id() + " or name " + group.name());
            }
            for (DataSetWriterConfig writer : group.writers()) {
                if (!writerIds.add(writer.id())) {
                    throw new IllegalArgumentException("PubSubConnection " + name + ": DataSetWriterId "
                            + writer.id() + " is used twice (it is unique within a publisher, Part 14, 6.2.4.1)");
                }
            }
        }
        Set<String> readerNames = new HashSet<>();
        for (DataSetReaderConfig reader : readers) {
            if (!readerNames.add(reader.name())) {
                throw new IllegalArgumentException("PubSubConnection " + name + " has two DataSetReaders named "
                        + reader.name());
            }
        }
    }
}
