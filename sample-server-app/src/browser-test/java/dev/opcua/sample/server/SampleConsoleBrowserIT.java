package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
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
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The live console in a real browser: Debian's headless Chromium, driven by Selenium through
 * {@code /usr/bin/chromedriver}, opens {@code /opcua-console} of the sample plant (on free ports) while an
 * OPC UA client reads from it, sees the request-rate chart and the request counter move, browses
 * Objects, FillingLine and ActualSpeed and watches the speed change while the line runs, and saves
 * a screenshot for the README. Run with {@code mvn -B verify -Pbrowser -pl sample-server-app -am}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = { "opcua.server.port=0", "opcua.server.shutdown-delay=0s", "plant.simulation.period-ms=200",
            "opcua.console.enabled=true" })
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
