package io.legacygateway.hawtio;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.StandaloneArtemis;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.apache.camel.api.management.ManagedCamelContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * What an operator does first, in a real browser: open Hawtio, log in with the demo account, open the Camel plugin and
 * see the relay route of {@code routes/demo}. Headless Chromium and chromedriver from Debian's packages
 * ({@code .ci/install-chromium.sh}); when they are missing the test is skipped, unless
 * {@code -Dgateway.browser.required=true} (set by {@code .ci/run}), which makes it fail.
 */
@ExtendWith(HawtioBrowserTest.ChromiumInstalled.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("demo")
class HawtioBrowserTest {

    private static final Logger log = LoggerFactory.getLogger(HawtioBrowserTest.class);
    static final String ROUTE_ID = "outbox-relay-demo-orders";
    static final String CAMEL_CONTEXT = "hawtio-browser-test";
    static final Duration WAIT = Duration.ofSeconds(60);

    static Path chromium;
    static Path chromedriver;

    @DynamicPropertySource
    static void inMemoryDemo(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.demo.url", () -> "jdbc:h2:mem:demo-browser;DB_CLOSE_DELAY=-1");
        registry.add("spring.artemis.embedded.persistent", () -> "false");
        registry.add("camel.main.routes-include-pattern",
                () -> "file:" + StandaloneArtemis.repositoryRoot().resolve("routes/demo") + "/*.yaml");
        // other test classes' gateways (Spring's context cache) share this JVM's MBean server: a name of its own
        // finds this gateway's Camel context in Hawtio's tree
        registry.add("camel.main.name", () -> CAMEL_CONTEXT);
        registry.add("gateway.security.users.watcher.password", () -> "watcher-password");
        registry.add("gateway.security.users.watcher.roles", () -> "viewer");
    }

    /**
     * Decides before Spring starts the gateway: skip (reported as skipped, with the reason) when Chromium or
     * chromedriver is missing, fail instead when {@code gateway.browser.required=true}.
     */
    static final class ChromiumInstalled implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            chromium = executable("gateway.browser.chromium", "chromium", "chromium-browser").orElse(null);
            chromedriver = executable("gateway.browser.chromedriver", "chromedriver").orElse(null);
            if (chromium != null && chromedriver != null) {
                return ConditionEvaluationResult.enabled("Chromium " + chromium + ", chromedriver " + chromedriver);
            }
            String message = "Chromium or chromedriver not installed (found chromium=" + chromium + ", chromedriver="
                    + chromedriver + "): run .ci/install-chromium.sh";
            if (Boolean.getBoolean("gateway.browser.required")) {
                throw new AssertionError(message + " (gateway.browser.required=true)");
            }
            return ConditionEvaluationResult.disabled(message + "; HawtioBrowserTest skipped");
        }
    }

    @LocalServerPort
    int port;
    @Autowired
    CamelContext camel;

    WebDriver browser;
    Path profileDir;

    @Test
    void anOperatorLogsInAndSeesTheCamelRoutes() throws IOException {
        logInAndFindTheRoute("demo", "demo");
    }

    /** Hawtio works read-only for a viewer: Jolokia reads pass, operations would be refused. */
    @Test
    void aViewerLogsInAndSeesTheCamelRoutes() throws IOException {
        logInAndFindTheRoute("watcher", "watcher-password");
    }

    /**
     * The billing relay's cycle route in Hawtio's route diagram: claim, the per-event envelope, the step route and
     * the event, publish and mark, each a node (the README's screenshot, {@code target/hawtio-relay-cycle.png}).
     */
    @Test
    void anOperatorSeesTheRelaysStepsInTheRouteDiagram() throws IOException {
        String cycle = "outbox-relay-demo-billing-cycle";
        Awaitility.await().atMost(WAIT).until(() -> camel.getRoute(cycle) != null
                && camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class)
                        .getManagedProcessor("steps-demo-billing").getExchangesCompleted() > 0);
        WebDriverWait wait = logInAndFindTheRoute("demo", "demo");
        By route = By.xpath("//*[normalize-space(text())='" + cycle + "']");
        if (browser.findElements(route).isEmpty()) {
            browser.findElement(By.xpath("(//*[normalize-space(text())='" + CAMEL_CONTEXT + "']/ancestor::li[1]"
                    + "//*[normalize-space(text())='routes'])[1]")).click();
        }
        wait.until(ExpectedConditions.elementToBeClickable(route)).click();
        wait.until(ExpectedConditions.elementToBeClickable(
                By.xpath("//*[self::a or self::button][normalize-space()='Route Diagram']"))).click();
        // one node per processor of the cycle route, the per-event ones inside the split
        wait.until(d -> d.findElements(By.cssSelector(".react-flow__node")).size() >= 8);
        screenshot("hawtio-relay-cycle-nodes.png");
        // the diagram reads the processors' statistics every few seconds: each node then shows its count, and the
        // step route's node (from, claim, split, envelope, steps, ...) its events on hover
        wait.until(d -> d.findElements(By.cssSelector(".react-flow__node .number")).stream()
                .anyMatch(n -> n.getText().matches("[1-9][0-9]*")));
        WebElement steps = browser.findElements(By.cssSelector(".react-flow__node")).get(4);
        new Actions(browser).moveToElement(steps).perform();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".node-tooltip")));
        assertThat(browser.findElement(By.cssSelector(".node-tooltip")).getText()).contains("steps-demo-billing");
        screenshot("hawtio-relay-cycle.png");
    }

    private WebDriverWait logInAndFindTheRoute(String user, String password) throws IOException {
        assertThat(camel.getRouteController().getRouteStatus(ROUTE_ID)).isEqualTo(ServiceStatus.Started);
        long start = System.nanoTime();
        browser = startChromium();
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        String base = "http://localhost:" + port;

        browser.get(base + "/actuator/hawtio/");
        wait.until(ExpectedConditions.urlToBe(base + "/login"));
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("button[type=submit]")).click();

        wait.until(ExpectedConditions.urlContains("/actuator/hawtio/"));
        // Hawtio's navigation lists the Camel plugin once Jolokia (through the session and CSRF cookie) answered
        wait.until(ExpectedConditions.elementToBeClickable(By.xpath("//nav//a[normalize-space()='Camel']"))).click();
        wait.until(ExpectedConditions.urlContains("/actuator/hawtio/camel"));
        // the Camel tree: context > routes > the route; the routes folder opens the routes table with their state
        By context = By.xpath("//*[normalize-space(text())='" + CAMEL_CONTEXT + "']");
        By routes = By.xpath("(//*[normalize-space(text())='" + CAMEL_CONTEXT + "']/ancestor::li[1]"
                + "//*[normalize-space(text())='routes'])[1]");
        wait.until(ExpectedConditions.elementToBeClickable(context));
        if (browser.findElements(routes).isEmpty()) {
            browser.findElement(context).click();
        }
        wait.until(ExpectedConditions.elementToBeClickable(routes)).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(
                By.xpath("//table//tr[td[normalize-space()='" + ROUTE_ID + "'] and td[normalize-space()='Started']]")));
        screenshot("hawtio-camel-routes-" + user + ".png");
        log.info("Hawtio browser test: {} logged in, Camel plugin shows route {} in {} ms (Chromium {})", user, ROUTE_ID,
                Duration.ofNanos(System.nanoTime() - start).toMillis(),
                ((ChromeDriver) browser).getCapabilities().getBrowserVersion());
        return wait;
    }

    @AfterEach
    void closeBrowser() throws IOException {
        if (browser != null) {
            try {
                screenshot("hawtio-last-page.png");
            } finally {
                browser.quit();
            }
        }
        if (profileDir != null) {
            FileSystemUtils.deleteRecursively(profileDir);
        }
    }

    private WebDriver startChromium() throws IOException {
        profileDir = Files.createTempDirectory("hawtio-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profileDir);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    private void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The executable named by the system property, else the first of the names found on the PATH. */
    private static Optional<Path> executable(String property, String... names) {
        String configured = System.getProperty(property);
        if (configured != null) {
            return Optional.of(Path.of(configured)).filter(Files::isExecutable);
        }
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .flatMap(dir -> Stream.of(names).map(n -> Path.of(dir, n)))
                .filter(Files::isExecutable).findFirst();
    }
}
