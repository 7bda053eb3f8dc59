package dev.opcua.cli.commands;

import dev.opcua.cli.ConnectionOptions;
import dev.opcua.cli.Durations;
import dev.opcua.cli.ExitCodes;
import dev.opcua.cli.CliException;
import dev.opcua.cli.JsonLine;
import dev.opcua.cli.Output;
import dev.opcua.cli.OutputOptions;
import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** GetEndpoints (Part 4, 5.4.4): the endpoints of a server as a table, without a session. */
@Command(name = "endpoints", description = "List the server's endpoints (GetEndpoints): URL, security policy, mode, "
        + "user token types, security level.")
public final class EndpointsCommand implements Callable<Integer> {

    @Mixin
    ConnectionOptions connection;

    @Mixin
    OutputOptions outputOptions;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Output output = outputOptions.output(spec);
        String url = connection.endpoint();
        long waitMillis = connection.timeout().toMillis() + 1000;
        EndpointDescription[] endpoints;
        try {
            endpoints = DiscoveryClient.getEndpoints(url).get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new CliException(ExitCodes.CONNECTION, "no OPC UA server answered at " + connection.hostAndPort()
                    + " within " + Durations.format(connection.timeout()) + ": is the port right, and is it an OPC UA"
                    + " endpoint (opc.tcp)?");
        } catch (ExecutionException e) {
            throw connection.describeFailure(e.getCause());
        }
        List<EndpointDescription> sorted = new ArrayList<>(Arrays.asList(endpoints));
        sorted.sort(Comparator.comparingInt((EndpointDescription e) -> e.securityLevel()).reversed());
        if (output.json()) {
            for (EndpointDescription e : sorted) {
                JsonLine line = new JsonLine(null).string("endpointUrl", e.endpointUrl())
                        .string("securityPolicy", policyName(e.securityPolicyUri()))
                        .string("securityPolicyUri", e.securityPolicyUri())
                        .string("securityMode", e.securityMode().name())
                        .number("securityLevel", e.securityLevel() & 0xFF)
                        .beginArray("userTokens");
                for (UserTokenPolicy token : tokens(e)) {
                    line.element(token.tokenType().name());
                }
                output.json(line.endArray());
            }
            return ExitCodes.OK;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"URL", "POLICY", "MODE", "USER TOKENS", "LEVEL"});
        for (EndpointDescription e : sorted) {
            StringJoiner tokens = new StringJoiner(", ");
            for (UserTokenPolicy token : tokens(e)) {
                tokens.add(token.tokenType().name());
            }
            rows.add(new String[] {e.endpointUrl(), policyName(e.securityPolicyUri()), e.securityMode().name(),
                tokens.toString(), String.valueOf(e.securityLevel() & 0xFF)});
        }
        Table.print(output, rows);
        return ExitCodes.OK;
    }

    private static List<UserTokenPolicy> tokens(EndpointDescription e) {
        return e.userIdentityTokens() == null ? List.of() : Arrays.asList(e.userIdentityTokens());
    }

    private static String policyName(String uri) {
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy.uri().equals(uri)) {
                return policy.name();
            }
        }
        return uri;
    }
}
