package dev.opcua.benchmarks.proc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What the probe reads from /proc: resident memory from the status file, CPU time from the stat line. */
class ProcStatusTest {

    @Test
    void resident_and_peak_memory_come_from_the_status_lines() {
        String status = "Name:\tjava\nVmPeak:\t 4000000 kB\nVmHWM:\t  301234 kB\nVmRSS:\t  245760 kB\nThreads:\t42\n";

        assertThat(ProcessMemory.parse(status)).isEqualTo(new ProcessMemory(245760, 301234));
    }

    @Test
    void a_status_without_resident_memory_is_refused_naming_the_key() {
        assertThatThrownBy(() -> ProcessMemory.parse("Name:\tjava\nVmHWM:\t 1 kB\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no VmRSS: line");
    }

    @Test
    void cpu_is_user_plus_system_ticks_even_when_the_command_name_holds_spaces() {
        // fields 14 (utime) = 250 and 15 (stime) = 31 ticks of 10 ms
        String stat = "4242 (java main) S 1 4242 4242 0 -1 4194560 5000 0 3 0 250 31 0 0 20 0 40 0 1234 5 6";

        assertThat(ProcessCpu.parse(stat)).isEqualTo(2810);
    }

    @Test
    void the_probe_reads_its_own_process() throws IOException {
        long pid = ProcessHandle.current().pid();

        assertThat(ProcessMemory.of(pid).rssKb()).isPositive();
        assertThat(ProcessCpu.millis(pid)).isPositive();
    }
}
