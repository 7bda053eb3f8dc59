package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.server.redundancy.RedundancyMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PairOptionsTest {

    @Test
    void a_hot_and_mirrored_server_takes_the_pairs_postgresql_out_of_the_arguments() {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--redundancy", "hot-and-mirrored", "--partner",
                "urn:b=opc.tcp://localhost:4842", "--state-store-url", "jdbc:postgresql://localhost:5432/postgres",
                "--state-store-user", "postgres", "--state-store-password", "secret"));

        PairOptions pair = PairOptions.extract(args);

        assertThat(pair.mode()).isEqualTo(RedundancyMode.HotAndMirrored);
        assertThat(pair.stateStore().url()).isEqualTo("jdbc:postgresql://localhost:5432/postgres");
        assertThat(pair.stateStore().user()).isEqualTo("postgres");
        assertThat(pair.stateStore().password()).isEqualTo("secret");
        assertThat(pair.stateStore().toString()).as("never the password").doesNotContain("secret");
        assertThat(args).containsExactly("--port", "0");
    }

    @Test
    void hot_and_mirrored_without_a_database_and_a_database_without_it_are_refused_naming_the_option() {
        assertThatThrownBy(() -> PairOptions.extract(new ArrayList<>(List.of("--redundancy", "hot-and-mirrored",
                "--partner", "urn:b=opc.tcp://localhost:4842"))))
                .hasMessageContaining("--redundancy hot-and-mirrored needs --state-store-url");
        assertThatThrownBy(() -> PairOptions.extract(new ArrayList<>(List.of("--redundancy", "hot", "--partner",
                "urn:b=opc.tcp://localhost:4842", "--state-store-url", "jdbc:postgresql://localhost/postgres"))))
                .hasMessageContaining("--state-store-url needs --redundancy hot-and-mirrored");
        assertThatThrownBy(() -> PairOptions.extract(new ArrayList<>(List.of("--redundancy", "hot-and-mirrored",
                "--partner", "urn:b=opc.tcp://localhost:4842", "--state-store-url", "localhost:5432"))))
                .hasMessageContaining("--state-store-url must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> PairOptions.extract(new ArrayList<>(List.of("--redundancy", "mirrored"))))
                .hasMessageContaining("--redundancy must be cold, warm, hot or hot-and-mirrored");
    }
}
