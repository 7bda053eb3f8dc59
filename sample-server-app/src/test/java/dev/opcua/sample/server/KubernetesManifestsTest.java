package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The manifests of {@code docs/kubernetes/} as Kubernetes would take them. Without a cluster {@code kubectl apply
 * --dry-run=client} cannot run (it needs the API server's discovery), so the manifests are parsed here and their
 * kinds, replicas, PodDisruptionBudget, probes and partner endpoint URLs checked; the container's start script is
 * run by {@code sh} for each pod ordinal to see the partner it computes. With {@code kubectl} on the PATH and a
 * cluster it answers, {@link #kubectl_accepts_them_in_a_client_dry_run()} runs the dry run as well.
 */
class KubernetesManifestsTest {

    private static final Path REDUNDANT = Path.of(System.getProperty("opcua.project.dir", ".."), "docs",
            "kubernetes", "sample-plant-redundant.yaml");

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents() throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml().loadAll(Files.readString(REDUNDANT))) {
            documents.add((Map<String, Object>) document);
        }
        return documents;
    }

    private static Map<String, Object> only(List<Map<String, Object>> documents, String kind, String name) {
        List<Map<String, Object>> found = documents.stream().filter(d -> kind.equals(d.get("kind"))
                && name.equals(map(d, "metadata").get("name"))).toList();
        assertThat(found).as("%s %s", kind, name).hasSize(1);
        return found.get(0);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String... path) {
        Map<String, Object> m = parent;
        for (String key : path) {
            assertThat(m).as("key %s", key).containsKey(key);
            m = (Map<String, Object>) m.get(key);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return (List<Map<String, Object>>) parent.get(key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> container() throws IOException {
        Map<String, Object> statefulSet = only(documents(), "StatefulSet", "sample-plant");
        return list(map(statefulSet, "spec", "template", "spec"), "containers").get(0);
    }

    @Test
    void a_statefulset_of_two_a_pdb_and_a_headless_service_per_pod() throws IOException {
        List<Map<String, Object>> documents = documents();
        assertThat(documents).extracting(d -> d.get("kind")).containsExactly("StatefulSet", "PodDisruptionBudget",
                "Service", "Service", "Service");
        assertThat(documents).allSatisfy(d -> assertThat(map(d, "metadata")).containsEntry("namespace", "plant"));

        Map<String, Object> statefulSet = only(documents, "StatefulSet", "sample-plant");
        assertThat(statefulSet).containsEntry("apiVersion", "apps/v1");
        Map<String, Object> spec = map(statefulSet, "spec");
        assertThat(spec).containsEntry("replicas", 2).containsEntry("serviceName", "sample-plant-pods");
        Map<String, Object> podLabels = map(spec, "template", "metadata", "labels");
        assertThat(map(spec, "selector", "matchLabels")).isEqualTo(podLabels);
        only(documents, "Service", "sample-plant-pods");

        Map<String, Object> pdb = only(documents, "PodDisruptionBudget", "sample-plant");
        assertThat(pdb).containsEntry("apiVersion", "policy/v1");
        assertThat(map(pdb, "spec")).containsEntry("minAvailable", 1);
        assertThat(map(pdb, "spec", "selector", "matchLabels")).isEqualTo(podLabels);

        for (int ordinal = 0; ordinal < 2; ordinal++) {
            Map<String, Object> service = only(documents, "Service", "sample-plant-" + ordinal);
            assertThat(map(service, "spec")).containsEntry("clusterIP", "None");
            assertThat(map(service, "spec", "selector")).containsAllEntriesOf(podLabels)
                    .containsEntry("statefulset.kubernetes.io/pod-name", "sample-plant-" + ordinal);
            assertThat(list(map(service, "spec"), "ports")).anySatisfy(port -> assertThat(port)
                    .containsEntry("port", 4840).containsEntry("targetPort", "opcua"));
        }
    }

    @Test
    void probes_are_actuators_and_readiness_is_the_readiness_group() throws IOException {
        Map<String, Object> container = container();
        assertThat(map(container, "readinessProbe", "httpGet")).containsEntry("path", "/actuator/health/readiness")
                .containsEntry("port", "http");
        assertThat(map(container, "livenessProbe", "httpGet")).containsEntry("path", "/actuator/health/liveness");
        assertThat(map(container, "startupProbe", "httpGet")).containsEntry("path", "/actuator/health/liveness");
        assertThat(list(container, "ports")).anySatisfy(p -> assertThat(p).containsEntry("name", "opcua")
                .containsEntry("containerPort", 4840)).anySatisfy(p -> assertThat(p).containsEntry("name", "http")
                .containsEntry("containerPort", 8080));
        // the readiness group of the sample server's application.yml is what the probe asks
        String applicationYml = Files.readString(Path.of(System.getProperty("opcua.project.dir", ".."),
                "sample-server-app", "src", "main", "resources", "application.yml"));
        assertThat(applicationYml).contains("include: readinessState, opcua");
    }

    /** The pair's readiness also follows the ServiceLevel; what a pod writes lives on its volume. */
    @Test
    void readiness_includes_the_service_level_and_every_data_directory_is_on_the_pods_volume() throws IOException {
        Map<String, Object> container = container();
        Map<String, String> fixed = new LinkedHashMap<>();
        for (Map<String, Object> env : list(container, "env")) {
            if (env.containsKey("value")) {
                fixed.put((String) env.get("name"), String.valueOf(env.get("value")));
            }
        }
        assertThat(fixed.get("MANAGEMENT_ENDPOINT_HEALTH_GROUP_READINESS_INCLUDE").split(","))
                .containsExactly("readinessState", "opcua", "opcuaServiceLevel");
        String volume = (String) list(container, "volumeMounts").get(0).get("mountPath");
        assertThat(fixed).hasEntrySatisfying("OPCUA_SERVER_SECURITY_PKI_DIR", dir -> assertThat(dir).startsWith(volume))
                .hasEntrySatisfying("OPCUA_SERVER_HISTORY_DIRECTORY", dir -> assertThat(dir).startsWith(volume))
                .hasEntrySatisfying("OPCUA_SERVER_NODE_MANAGEMENT_PERSIST_DIR",
                        dir -> assertThat(dir).startsWith(volume));
    }

    /** Each pod, from its ordinal, names the other as its partner, by the other's per-pod Service. */
    @Test
    void each_pod_names_the_other_as_its_partner() throws Exception {
        Map<String, Object> container = container();
        Map<String, String> fixed = new LinkedHashMap<>();
        for (Map<String, Object> env : list(container, "env")) {
            if (env.containsKey("value")) {
                fixed.put((String) env.get("name"), String.valueOf(env.get("value")));
            } else {
                assertThat(map(env, "valueFrom", "fieldRef")).containsEntry("fieldPath", "metadata.name");
            }
        }
        assertThat(fixed).containsEntry("OPCUA_SERVER_REDUNDANCY_MODE", "hot");
        @SuppressWarnings("unchecked")
        List<String> command = (List<String>) container.get("command");
        assertThat(command).hasSize(3).startsWith("sh", "-c");
        assertThat(command.get(2)).contains("exec java -jar /app/app.jar"); // java PID 1: SIGTERM reaches the JVM

        for (int ordinal = 0; ordinal < 2; ordinal++) {
            String pod = "sample-plant-" + ordinal;
            String partner = "sample-plant-" + (1 - ordinal);
            Map<String, String> vars = Map.of("POD_NAME", pod);
            Map<String, String> env = new HashMap<>();
            env.put("POD_NAME", pod);
            fixed.forEach((name, value) -> env.put(name, expand(value, vars)));
            assertThat(env).containsEntry("OPCUA_SERVER_APPLICATION_URI", "urn:dev.opcua:sample:plant:" + pod)
                    .containsEntry("OPCUA_SERVER_HOSTNAMES_0", pod + ".plant.svc.cluster.local");

            // the script as the container runs it, with env instead of java: what would the JVM see?
            String script = expand(command.get(2), vars).replace("exec java -jar /app/app.jar", "exec env");
            Map<String, String> seen = run(script, env);
            assertThat(seen).containsEntry("OPCUA_SERVER_REDUNDANCY_PARTNERS_0_SERVER_URI",
                    "urn:dev.opcua:sample:plant:" + partner);
            assertThat(seen).containsEntry("OPCUA_SERVER_REDUNDANCY_PARTNERS_0_ENDPOINT_URL",
                    "opc.tcp://" + partner + ".plant.svc.cluster.local:4840/");
        }
    }

    /** Kubernetes' expansion of command and env values: $(NAME) of a defined variable, $$ for $. */
    private static String expand(String value, Map<String, String> vars) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '$') {
                out.append('$');
                i++;
            } else if (c == '$' && i + 1 < value.length() && value.charAt(i + 1) == '(') {
                int end = value.indexOf(')', i);
                String name = end < 0 ? null : value.substring(i + 2, end);
                if (name != null && vars.containsKey(name)) {
                    out.append(vars.get(name));
                    i = end;
                } else {
                    out.append(c);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static Map<String, String> run(String script, Map<String, String> env) throws Exception {
        Path sh = Path.of("/bin/sh");
        Assumptions.assumeTrue(Files.isExecutable(sh), "no /bin/sh");
        ProcessBuilder builder = new ProcessBuilder(sh.toString(), "-c", script).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Map<String, String> seen = new HashMap<>();
        output.lines().filter(l -> l.contains("=")).forEach(l -> seen.put(l.substring(0, l.indexOf('=')),
                l.substring(l.indexOf('=') + 1)));
        return seen;
    }

    @Test
    void kubectl_accepts_them_in_a_client_dry_run() throws Exception {
        Path kubectl = null;
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "kubectl");
            if (Files.isExecutable(candidate)) {
                kubectl = candidate;
                break;
            }
        }
        Assumptions.assumeTrue(kubectl != null, "kubectl not on the PATH");
        Process process = new ProcessBuilder(kubectl.toString(), "apply", "--dry-run=client", "-f",
                REDUNDANT.toString()).redirectErrorStream(true).start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Assumptions.assumeFalse(process.exitValue() != 0 && (output.contains("connection refused")
                || output.contains("no such host") || output.contains("failed to download openapi")
                || output.contains("couldn't get current server API group list")),
                "kubectl has no cluster to answer its discovery: " + output);
        assertThat(process.exitValue()).as(output).isZero();
    }
}
