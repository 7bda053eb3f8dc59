/**
 * Reading the Grafana dashboards of {@code docs/dashboards/} in tests: their panels' PromQL, the metric names
 * it selects, and a check of those names against a real {@code /actuator/prometheus} scrape. Shared with
 * the sample client's tests through this module's test jar.
 */
package dev.opcua.sample.server.dashboards;
