package dev.opcua.sample.server.dashboards;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Grafana dashboard of {@code docs/dashboards/} as the tests see it: its panels with their PromQL
 * expressions and its query variables.
 *
 * @param title the dashboard's title
 * @param panels every panel with at least one query, rows' nested panels included
 * @param variables the templating variables of type query ({@code label_values(...)})
 */
public record Dashboard(String title, List<Panel> panels, List<Variable> variables) {

    /** A panel and the {@code expr} of each of its targets. */
    public record Panel(String title, List<String> expressions) {
    }

    /** A query variable such as {@code instance} and its {@code label_values(selector, label)} query. */
    public record Variable(String name, String query) {
    }

    /**
     * Reads {@code docs/dashboards/<file>} of this repository: the surefire property {@code opcua.project.dir}
     * names its root, else the module's parent directory.
     */
    public static Dashboard load(String file) {
        String root = System.getProperty("opcua.project.dir", "..");
        return read(Path.of(root, "docs", "dashboards", file));
    }

    /** Reads a dashboard JSON file. */
    public static Dashboard read(Path file) {
        JsonNode json;
        try {
            json = JsonMapper.builder().build().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Panel> panels = new ArrayList<>();
        collectPanels(json.path("panels"), panels);
        List<Variable> variables = new ArrayList<>();
        for (JsonNode variable : json.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asString())) {
                JsonNode query = variable.path("query");
                variables.add(new Variable(variable.path("name").asString(),
                        query.isObject() ? query.path("query").asString() : query.asString()));
            }
        }
        return new Dashboard(json.path("title").asString(), List.copyOf(panels), List.copyOf(variables));
    }

    /**
     * What the scrape lacks: one line per metric name of a panel or of a variable query that is not a
     * sample name of {@code scrape} (and per expression in which no name was found), naming the panel.
     */
    public List<String> absentFrom(PrometheusScrape scrape) {
        List<String> problems = new ArrayList<>();
        for (Panel panel : panels) {
            for (String expression : panel.expressions()) {
                check("panel '" + panel.title() + "'", expression, scrape, problems);
            }
        }
        for (Variable variable : variables) {
            check("variable $" + variable.name(), PromQl.labelValues(variable.query()).getKey(), scrape, problems);
        }
        return problems;
    }

    private void check(String where, String expression, PrometheusScrape scrape, List<String> problems) {
        Set<String> names = PromQl.metricNames(expression);
        if (names.isEmpty()) {
            problems.add(title + ", " + where + ": no metric name in " + expression);
        }
        for (String name : names) {
            scrape.absence(name).ifPresent(why -> problems.add(title + ", " + where + ": " + why));
        }
    }

    private static void collectPanels(JsonNode array, List<Panel> into) {
        for (JsonNode panel : array) {
            List<String> expressions = new ArrayList<>();
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    expressions.add(target.get("expr").asString());
                }
            }
            if (!expressions.isEmpty()) {
                into.add(new Panel(panel.path("title").asString(), List.copyOf(expressions)));
            }
            collectPanels(panel.path("panels"), into); // a collapsed row holds its panels
        }
    }
}
