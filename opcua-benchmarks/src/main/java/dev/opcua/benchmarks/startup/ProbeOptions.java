package dev.opcua.benchmarks.startup;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@link StartupProbe} launches and how it waits.
 *
 * @param endpointUrl the server's OPC UA endpoint, asked for its endpoints until it answers
 * @param command the server's command line (launched directly, no shell)
 * @param directory working directory of the server (its PKI and data directories live there)
 * @param log file that receives the server's standard output and error
 * @param timeout how long the server may take to answer before the run fails
 * @param idle how long the server stays idle after it answered before its memory is read
 * @param pollInterval pause between two attempts while the port does not answer
 */
record ProbeOptions(String endpointUrl, List<String> command, Path directory, Path log, Duration timeout,
        Duration idle, Duration pollInterval) {

    static final String USAGE = """
            usage: StartupProbe --endpoint opc.tcp://HOST:PORT/ [--dir DIR] [--log FILE] [--timeout-s S] [--idle-s S]
                                [--poll-ms MS] -- COMMAND...""";

    /**
     * The options of the command line.
     *
     * @throws IllegalArgumentException naming the option that is missing, unknown or has a bad value
     */
    static ProbeOptions parse(String... args) {
        String endpoint = null;
        Path directory = Path.of(".");
        Path log = null;
        Duration timeout = Duration.ofSeconds(60);
        Duration idle = Duration.ofSeconds(5);
        Duration poll = Duration.ofMillis(10);
        int i = 0;
        while (i < args.length && !args[i].equals("--")) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + option + " needs a value\n" + USAGE);
            }
            String value = args[i + 1];
            switch (option) {
                case "--endpoint" -> endpoint = value;
                case "--dir" -> directory = Path.of(value);
                case "--log" -> log = Path.of(value);
                case "--timeout-s" -> timeout = Duration.ofSeconds(positive(option, value));
                case "--idle-s" -> idle = Duration.ofSeconds(atLeastZero(option, value));
                case "--poll-ms" -> poll = Duration.ofMillis(positive(option, value));
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
            i += 2;
        }
        if (endpoint == null || !endpoint.startsWith("opc.tcp://")) {
            throw new IllegalArgumentException("--endpoint opc.tcp://HOST:PORT/ is required, got " + endpoint
                    + "\n" + USAGE);
        }
        if (i >= args.length - 1) {
            throw new IllegalArgumentException("no command after --\n" + USAGE);
        }
        List<String> command = List.of(args).subList(i + 1, args.length);
        return new ProbeOptions(endpoint, command, directory, log == null ? directory.resolve("server.log") : log,
                timeout, idle, poll);
    }

    private static long positive(String option, String value) {
        long number = atLeastZero(option, value);
        if (number == 0) {
            throw new IllegalArgumentException(option + " must be above 0, got " + value);
        }
        return number;
    }

    private static long atLeastZero(String option, String value) {
        try {
            long number = Long.parseLong(value);
            if (number >= 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below with the option's name
        }
        throw new IllegalArgumentException(option + " takes a whole number of 0 or more, got " + value);
    }
}
