package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opcua.consoletest.ClientOnlyConsoleApplication;
import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.stack.server.OpcUaServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.csrf.CookieServerCsrfTokenRepository;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.security.web.server.csrf.ServerCsrfTokenRequestAttributeHandler;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;

/**
 * The live console in a real browser: Debian's headless Chromium, driven by Selenium through
 * {@code /usr/bin/chromedriver}, opens {@code /opcua-console} of the sample plant (on free ports) while an
 * OPC UA client reads from it, sees the request-rate chart and the request counter move, browses
 * Objects, FillingLine and ActualSpeed and watches the speed change while the line runs, and saves
 * a screenshot for the README; an engineer signed in writes the conveyor speed; and a client-only application's
 * console shows only its connections, with an error from before its server came up dimmed. Run with
 * {@code mvn -B verify -Pbrowser -pl sample-server-app -am}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "opcua.server.port=0", "opcua.server.shutdown-delay=0s", "plant.simulation.period-ms=200",
            "opcua.console.enabled=true", "opcua.console.write-role=ENGINEER" })
class SampleConsoleBrowserIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    static Path pki;

    @TempDir
    Path profile;

    @DynamicPropertySource
    static void pkiDirectory(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
    }

    @Autowired
    OpcUaServer server;

    @Autowired
    FillingLine line;

    @LocalServerPort
    int httpPort;

    private WebDriver browser;
    private OpcUaClient client;
    private final ScheduledExecutorService plantOperator = Executors.newSingleThreadScheduledExecutor(
            runnable -> new Thread(runnable, "browser-test-operator"));

    @BeforeAll
    static void needsChromium() {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "SampleConsoleBrowserIT skipped: /usr/bin/chromium and /usr/bin/chromedriver are needed "
                        + "(apt-get install -y chromium chromium-driver)");
    }

    @AfterEach
    void stop() throws Exception {
        plantOperator.shutdownNow();
        if (browser != null) {
            browser.quit();
        }
        if (client != null) {
            client.disconnect();
        }
    }

    @Test
    void the_console_shows_live_charts_and_browses_to_a_changing_actual_speed() throws Exception {
        // The line runs, its set point moving between two speeds so that ActualSpeed keeps ramping,
        // and a client reads from the server so that the request rates have something to show.
        line.setConveyorSpeed(600);
        line.start();
        plantOperator.scheduleAtFixedRate(() -> line.setConveyorSpeed(line.getConveyorSpeed() > 300 ? 120 : 600),
                3, 3, TimeUnit.SECONDS);
        client = MiloTestClients.overNone(server.endpointUrl(), new AnonymousProvider(), 5_000);
        int ns = client.getNamespaceTable().getIndex(FillingLine.NAMESPACE).intValue();
        NodeId actualSpeed = new NodeId(ns, "FillingLine.ActualSpeed");
        // and a subscription to the motors' temperatures, for the notifications chart
        OpcUaSubscription subscription = new OpcUaSubscription(client, 200.0);
        subscription.create();
        for (String motor : new String[] { "ConveyorMotor", "FillerMotor" }) {
            subscription.addMonitoredItem(OpcUaMonitoredItem.newDataItem(new NodeId(ns, "FillingLine." + motor + ".Temperature")));
        }
        subscription.addMonitoredItem(OpcUaMonitoredItem.newDataItem(actualSpeed));
        subscription.synchronizeMonitoredItems();
        plantOperator.scheduleAtFixedRate(() -> {
            try {
                client.readValue(0, TimestampsToReturn.Both, actualSpeed);
            } catch (Exception e) {
                // the next read will tell; the page's assertions are what count
            }
        }, 0, 50, TimeUnit.MILLISECONDS);

        browser = chromium();
        browser.get("http://localhost:" + httpPort + "/opcua-console");
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        JavascriptExecutor page = (JavascriptExecutor) browser;

        wait.until(b -> page.executeScript("return window.opcuaConsole && window.opcuaConsole.polls") instanceof Long polls
                && polls >= 2);
        assertThat(browser.findElement(By.id("server-state")).getText()).isEqualTo("Running");
        assertThat(browser.findElement(By.id("sessions-card")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("clients-card")).isDisplayed())
                .as("a server without client connections has no client connections card").isFalse();
        assertThat(browser.findElement(By.id("application-uri")).getText()).isEqualTo("urn:dev.opcua:sample:plant");
        assertThat(page.executeScript("return !!window.echarts")).as("ECharts from the WebJar").isEqualTo(true);

        // the counter of answered requests goes up, and the Read line of the rate chart gets new points
        long total = requestsTotal();
        long points = ratePoints(page);
        wait.until(b -> requestsTotal() > total && ratePoints(page) > points + 1);
        assertThat(page.executeScript("""
                const chart = echarts.getInstanceByDom(document.getElementById('rates-chart'));
                const read = chart.getOption().series.find(s => s.name === 'Read');
                return read.data.some(point => point[1] > 0);""")).as("a Read rate above 0 in the chart").isEqualTo(true);

        // Objects -> FillingLine -> ActualSpeed, then watch it change
        wait.until(b -> !b.findElements(By.cssSelector(".node[data-browse-name='FillingLine']")).isEmpty());
        browser.findElement(By.cssSelector(".node[data-browse-name='FillingLine']")).click();
        wait.until(b -> !b.findElements(By.cssSelector(".node[data-browse-name='ActualSpeed']")).isEmpty());
        browser.findElement(By.cssSelector(".node[data-browse-name='ActualSpeed']")).click();
        Set<String> seen = new LinkedHashSet<>();
        wait.until(b -> {
            String value = b.findElement(By.id("value-value")).getText();
            if (!value.isBlank() && !value.equals("–")) {
                seen.add(value);
            }
            return seen.size() >= 3;
        });
        assertThat(browser.findElement(By.id("value-type")).getText()).isEqualTo("Double");
        assertThat(browser.findElement(By.id("value-status")).getText()).isEqualTo("Good");

        Thread.sleep(4_000); // a few more seconds of history for the screenshot
        screenshot();
    }

    @Test
    void an_engineer_signed_in_writes_the_conveyor_speed_typed_as_a_double_and_the_write_is_audited() {
        line.setConveyorSpeed(120);
        browser = chromium();
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        String console = "http://localhost:" + httpPort + "/opcua-console/";

        // anonymous: the value, and no way to write it
        browser.get(console);
        openVariable(wait, "ConveyorSpeed");
        wait.until(b -> b.findElement(By.id("value-value")).getText().equals("120.0"));
        assertThat(browser.findElement(By.id("write-form")).isDisplayed()).isFalse();

        // signed in with the write role: the form, a written value, the result, the audit event
        browser.get("http://localhost:" + httpPort + "/login");
        browser.findElement(By.id("username")).sendKeys("engineer");
        browser.findElement(By.id("password")).sendKeys("line1-engineer");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(b -> !b.getCurrentUrl().contains("/login"));
        browser.get(console);
        openVariable(wait, "ConveyorSpeed");
        wait.until(b -> b.findElement(By.id("write-form")).isDisplayed());
        assertThat(browser.findElement(By.id("write-value")).getAttribute("placeholder")).isEqualTo("Double");
        writeValue("240");
        wait.until(b -> b.findElement(By.id("write-result")).getText().startsWith("Good"));
        assertThat(browser.findElement(By.id("write-result")).getText()).isEqualTo("Good: 120.0 → 240.0");
        assertThat(line.getConveyorSpeed()).isEqualTo(240.0);
        wait.until(b -> b.findElement(By.id("value-value")).getText().equals("240.0"));
        assertThat(audits.events).singleElement().satisfies(event -> {
            assertThat(event.getAuditEvent().getPrincipal()).isEqualTo("engineer");
            assertThat(event.getAuditEvent().getData()).containsEntry("oldValue", "120.0")
                    .containsEntry("newValue", "240.0").containsEntry("status", "Good");
        });

        // text that is no Double is refused, naming it
        writeValue("fast");
        wait.until(b -> b.findElement(By.id("write-result")).getText().startsWith("'fast'"));
        assertThat(browser.findElement(By.id("write-result")).getText())
                .isEqualTo("'fast' is not a Double (a number such as 12.5 or -3e2)");
        assertThat(browser.findElement(By.id("write-result")).getAttribute("class")).isEqualTo("bad");
        assertThat(line.getConveyorSpeed()).isEqualTo(240.0);
    }

    @Test
    void a_client_only_console_shows_its_connections_only_and_dims_an_error_from_before_its_server_came_up()
            throws Exception {
        int opcUaPort = freePort();
        int consolePort = freePort();
        String path = "/plant/line-1/filling-and-capping/supervisory-endpoint";
        String endpoint = "opc.tcp://127.0.0.1:" + opcUaPort + path;
        try (ConfigurableApplicationContext clients = new SpringApplicationBuilder(ClientOnlyConsoleApplication.class)
                .properties("spring.config.name=client-only-console", "server.port=" + consolePort,
                        "opcua.server.enabled=false", "opcua.console.enabled=true",
                        "opcua.client.connections.line.endpoint-url=" + endpoint,
                        "opcua.client.connections.line.reconnect.initial-delay=200ms",
                        "opcua.client.connections.line.reconnect.max-delay=500ms")
                .run()) {
            browser = chromium();
            browser.manage().window().setSize(new Dimension(700, 1200)); // narrow: the long URL must wrap
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            JavascriptExecutor page = (JavascriptExecutor) browser;
            browser.get("http://localhost:" + consolePort + "/opcua-console/");
            wait.until(b -> b.findElement(By.id("clients-card")).isDisplayed());
            for (String card : new String[] { "server-card", "sessions-card", "queue-card", "rates-card",
                "subscriptions-card", "address-space-card" }) {
                assertThat(browser.findElement(By.id(card)).isDisplayed()).as(card).isFalse();
            }
            assertThat(browser.findElement(By.id("server-state")).isDisplayed()).isFalse();
            assertThat(browser.findElement(By.id("application-uri")).getText()).isEqualTo("client only");

            // nobody listens yet: the error is red beside a state that is not CONNECTED
            wait.until(b -> !b.findElements(By.cssSelector("#clients .last-error.bad")).isEmpty());

            OpcUaServer late = OpcUaServer.builder().applicationUri("urn:test:late-plant").bindAddress("127.0.0.1")
                    .port(opcUaPort).path(path).hostnames(List.of("127.0.0.1")).build().start();
            try {
                // the table is drawn again at every poll: each look at it is one script, never a kept element
                wait.until(b -> Boolean.TRUE.equals(page.executeScript("""
                        const row = document.querySelector('#clients tbody tr');
                        return !!row && row.children[2].textContent === 'CONNECTED'
                          && !!row.querySelector('.last-error.stale');""")));
                @SuppressWarnings("unchecked")
                Map<String, String> error = (Map<String, String>) page.executeScript("""
                        const error = document.querySelector('#clients .last-error');
                        return { text: error.textContent, title: error.title, color: getComputedStyle(error).color };""");
                assertThat(error.get("text")).matches(".+ · \\d+(\\.\\d+)? (ms|s|min) ago");
                assertThat(error.get("title")).startsWith("Connected again since");
                assertThat(error.get("color")).as("dimmed, not red").isNotEqualTo("rgb(198, 40, 40)");

                // the URL wraps, and only right after a separator
                assertThat(page.executeScript(LINE_BREAKS, "#clients .url")).asString()
                        .as("the characters before each line break").isNotEmpty().matches("[/.:?&=;#@-]+");
            } finally {
                late.close();
            }
        }
    }

    /**
     * The characters after which the text of the element a selector names breaks onto a new line, from the
     * position of each character's box.
     */
    private static final String LINE_BREAKS = """
            const el = document.querySelector(arguments[0]);
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            let before = '', lastTop = null, previous = '';
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (let i = 0; i < node.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const top = range.getBoundingClientRect().top;
                if (lastTop !== null && top > lastTop + 2) before += previous;
                lastTop = top;
                previous = node.data[i];
              }
            }
            return before;""";

    private void openVariable(WebDriverWait wait, String browseName) {
        wait.until(b -> !b.findElements(By.cssSelector(".node[data-browse-name='FillingLine']")).isEmpty());
        browser.findElement(By.cssSelector(".node[data-browse-name='FillingLine']")).click();
        By variable = By.cssSelector(".node[data-browse-name='" + browseName + "']");
        wait.until(b -> !b.findElements(variable).isEmpty());
        browser.findElement(variable).click();
    }

    private void writeValue(String value) {
        WebElement input = browser.findElement(By.id("write-value"));
        input.clear();
        input.sendKeys(value);
        browser.findElement(By.id("write-button")).click();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private long requestsTotal() {
        return Long.parseLong(browser.findElement(By.id("requests-total")).getText().replace(",", ""));
    }

    private static long ratePoints(JavascriptExecutor page) {
        Object points = page.executeScript(
                "return (window.opcuaConsole.rates['Read'] || []).length");
        return points instanceof Long n ? n : 0;
    }

    private void screenshot() throws Exception {
        String target = System.getProperty("opcua.console.screenshot");
        if (target == null) {
            return;
        }
        Path png = Path.of(target);
        Files.createDirectories(png.getParent());
        Files.write(png, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    @Autowired
    Audits audits;

    /**
     * What an application that lets engineers write does: a sign-in page, the console open to everyone for
     * reading, {@code engineer} with the role ENGINEER ({@code opcua.console.write-role}); audit events collected.
     * The sample runs on WebFlux, so this is Spring Security's reactive chain: the CSRF token in the
     * {@code XSRF-TOKEN} cookie, which the console's page sends back as {@code X-XSRF-TOKEN} (as the token itself,
     * hence the plain request handler), and a filter that makes every response carry the cookie.
     */
    @TestConfiguration(proxyBeanMethods = false)
    @EnableWebFluxSecurity
    static class SignIn {

        @Bean
        SecurityWebFilterChain securityFilterChain(ServerHttpSecurity http) {
            return http.authorizeExchange(exchanges -> exchanges.anyExchange().permitAll())
                    .formLogin(Customizer.withDefaults())
                    .csrf(csrf -> csrf.csrfTokenRepository(CookieServerCsrfTokenRepository.withHttpOnlyFalse())
                            .csrfTokenRequestHandler(new ServerCsrfTokenRequestAttributeHandler()))
                    .build();
        }

        @Bean
        WebFilter csrfCookie() {
            return (exchange, chain) -> {
                Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
                return (token != null ? token.then() : Mono.<Void>empty()).then(chain.filter(exchange));
            };
        }

        @Bean
        MapReactiveUserDetailsService users() {
            return new MapReactiveUserDetailsService(
                    User.withUsername("engineer").password("{noop}line1-engineer").roles("ENGINEER").build());
        }

        @Bean
        Audits audits() {
            return new Audits();
        }
    }

    /** The audit events of the application, as its AuditEventRepository would get them. */
    static class Audits implements ApplicationListener<AuditApplicationEvent> {

        final List<AuditApplicationEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(AuditApplicationEvent event) {
            events.add(event);
        }
    }

    private WebDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // Headless as root; without the background-networking switches Chromium's own outgoing connections
        // (refused in a closed network) stall it.
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1400,1500");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().window().setSize(new Dimension(1400, 1500));
        return driver;
    }
}
