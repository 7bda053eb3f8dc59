package dev.opcua.sample.server.quality;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NodeManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The quality station's address space, built in code: a node manager is an ordinary bean, which
 * the starter registers with the server. Namespace {@code urn:dev.opcua:sample:quality}, object
 * {@code QualityStation} under Objects; values are read from the station when sampled or read.
 */
@Configuration(proxyBeanMethods = false)
public class QualityStationNodes {

    public static final String NAMESPACE = "urn:dev.opcua:sample:quality";

    @Bean
    NodeManager qualityStationNodeManager(QualityStation station) {
        return InMemoryNodeManager.builder(NAMESPACE)
                .object("QualityStation", o -> o.description("Camera inspection after the filler"))
                .variable("QualityStation.Inspected", BuiltinType.UInt64,
                        v -> v.description("Bottles inspected").valueSupplier(
                                () -> Variant.ofUInt64(station.inspected())))
                .variable("QualityStation.Rejected", BuiltinType.UInt64,
                        v -> v.description("Bottles rejected").valueSupplier(
                                () -> Variant.ofUInt64(station.rejected())))
                .variable("QualityStation.RejectRate", BuiltinType.Double,
                        v -> v.description("Rejected bottles in percent").valueSupplier(
                                () -> Variant.ofDouble(station.rejectRate())))
                .variable("QualityStation.LastRejectReason", BuiltinType.String,
                        v -> v.description("Why the last bottle was rejected").valueSupplier(
                                () -> Variant.ofString(station.lastRejectReason())))
                .method("QualityStation.ResetStatistics", new Argument[0], new Argument[0], (context, inputs) -> {
                    station.resetStatistics();
                    return new Variant[0];
                })
                .build();
    }
}
