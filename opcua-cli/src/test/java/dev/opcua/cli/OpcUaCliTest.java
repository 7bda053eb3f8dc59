package dev.opcua.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What the command line says without a server: usage, help, version, options checked before connecting. */
class OpcUaCliTest {

    @Test
    void no_command_is_bad_usage_naming_the_commands() {
        CliRun run = CliRun.of();

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("a command is required", "browse", "subscribe", "nodeset");
    }

    @Test
    void help_lists_every_command_and_the_exit_codes() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("endpoints", "browse", "read", "write", "call", "subscribe", "history",
                "nodeset", "cert", "Exit codes: 0 ok, 1 bad usage, 2 connection");
    }

    @Test
    void every_server_command_has_the_connection_and_output_options() {
        for (String command : new String[] {"endpoints", "browse", "read", "write", "call", "subscribe", "history"}) {
            CliRun run = CliRun.of(command, "--help");

            assertThat(run.out()).as(command).contains("ENDPOINT", "--policy", "--mode", "--user", "--password-file",
                    "--certificate", "--pki", "--timeout", "--profile", "--json", "--no-color");
        }
    }

    @Test
    void an_unknown_option_or_a_missing_argument_is_bad_usage_with_a_hint() {
        CliRun unknown = CliRun.of("read", "opc.tcp://localhost:4840", "i=2258", "--colour");
        CliRun missing = CliRun.of("read", "opc.tcp://localhost:4840");

        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("--colour", "Try 'opcua read --help'");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("NODE");
    }

    @Test
    void an_endpoint_that_is_no_opc_tcp_url_is_bad_usage() {
        CliRun run = CliRun.of("read", "http://localhost:4840", "i=2258");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'http://localhost:4840' is not an endpoint URL", "opc.tcp://host:port");
    }

    @Test
    void a_bad_policy_or_timeout_names_what_is_allowed() {
        CliRun policy = CliRun.of("read", "opc.tcp://localhost:4840", "i=2258", "--policy", "Basic512");
        CliRun timeout = CliRun.of("read", "opc.tcp://localhost:4840", "i=2258", "--timeout", "soon");

        assertThat(policy.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(policy.err()).contains("Basic512", "Basic256Sha256", "Aes128_Sha256_RsaOaep");
        assertThat(timeout.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(timeout.err()).contains("'soon' is not a duration");
    }

    @Test
    void a_missing_profile_file_is_named() {
        CliRun run = CliRun.of("read", "opc.tcp://localhost:4840", "i=2258", "--profile", "/nowhere/plant.yaml");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("/nowhere/plant.yaml does not exist");
    }

    @Test
    void durations_read_as_typed() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("PT10S")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("3")).isEqualTo(Duration.ofSeconds(3));
    }
}
