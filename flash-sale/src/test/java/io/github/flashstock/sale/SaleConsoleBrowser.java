package io.github.flashstock.sale;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The sale console ({@code /console/} of inventory-service) in a real browser: Debian's headless Chromium driven
 * through its ChromeDriver ({@code bin/setup} installs both; {@code console.chromium} and {@code console.chromedriver}
 * move them). What a test does on the page goes through its form fields and buttons, what it reads is the text the
 * page shows. Screenshots go to {@code target/console/}.
 */
final class SaleConsoleBrowser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "console");

    private final ChromeDriver driver;
    private final Path profile;

    private SaleConsoleBrowser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Opens the console of the inventory instance at {@code inventoryUrl} in a new headless Chromium. */
    static SaleConsoleBrowser open(String inventoryUrl) {
        String chromium = System.getProperty("console.chromium", "/usr/bin/chromium");
        String chromedriver = System.getProperty("console.chromedriver", "/usr/bin/chromedriver");
        for (String program : List.of(chromium, chromedriver)) {
            if (!Files.isExecutable(Path.of(program))) {
                throw new IllegalStateException(program + " is missing: bin/setup installs Debian's chromium and"
                        + " chromium-driver");
            }
        }
        try {
            Path profile = Files.createTempDirectory("console-chromium");
            ChromeOptions options = new ChromeOptions().setBinary(chromium).addArguments("--headless=new",
                    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1600,1900", "--user-data-dir=" + profile);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(new File(chromedriver)).usingAnyFreePort().build();
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
            driver.get(inventoryUrl + "/console");
            return new SaleConsoleBrowser(driver, profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Signs in with {@code token} through the form. */
    void signIn(String token) {
        WebElement field = driver.findElement(By.id("token"));
        field.clear();
        field.sendKeys(token);
        driver.findElement(By.id("login-button")).click();
    }

    /** The console's part is shown (signed in). */
    boolean signedIn() {
        return driver.findElement(By.id("console")).isDisplayed();
    }

    String loginError() {
        return driver.findElement(By.id("login-error")).getText();
    }

    /** The address the page is at now. */
    String url() {
        return driver.getCurrentUrl();
    }

    /** Shows only the SKUs whose id starts with {@code prefix}. */
    void filter(String prefix) {
        WebElement field = driver.findElement(By.id("sku-filter"));
        field.clear();
        field.sendKeys(prefix);
    }

    /** A SKU's cell as the page shows it ({@code redis.available}, {@code mysql.sold}…); null while it has no row. */
    String field(String skuId, String field) {
        return (String) read("var c = document.querySelector(\"#skus tr[data-sku='\" + arguments[0]"
                + " + \"'] td[data-field='\" + arguments[1] + \"']\"); return c ? c.textContent : null;", skuId, field);
    }

    /** A figure at the top ({@code rate-tries}, {@code rate-confirms}…) as a number; -1 while it shows none. */
    double figure(String id) {
        String text = ((String) read("return document.getElementById(arguments[0]).textContent;", id))
                .replace(",", "");
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The health table's rows, one per inventory instance, as text. */
    @SuppressWarnings("unchecked")
    List<String> instances() {
        return (List<String>) read("return Array.from(document.querySelectorAll('#instances tbody tr'))"
                + ".map(function (r) { return r.innerText; });");
    }

    String registered() {
        return (String) read("return document.getElementById('registered').textContent;");
    }

    /**
     * Runs a script that reads the page: in one go on the page's own thread, so the table the page rebuilds every
     * second is read whole, never half old and half new (and no element goes stale between finding and reading it).
     */
    private Object read(String script, Object... args) {
        return driver.executeScript(script, args);
    }

    /** Clicks the SKU's row, so the actions apply to it (again if the page rebuilt the row under the click). */
    void select(String skuId) {
        new WebDriverWait(driver, Duration.ofSeconds(10)).ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#skus tr[data-sku='" + skuId + "'] td")).click();
            return skuId.equals(d.findElement(By.id("action-sku")).getText());
        });
    }

    void restock(String quantity) {
        act("restock-quantity", quantity, "restock-button");
    }

    void setSegments(String count) {
        act("segments-value", count, "segments-button");
    }

    void setReserve(String allotment) {
        act("allotment-value", allotment, "allotment-button");
    }

    /** The page's answer to the last action: its text and whether it says it went well. */
    record Message(String text, boolean ok) {
    }

    /** Waits for the answer to the action just taken (the page shows "Sending…" until it has one) and returns it. */
    Message awaitMessage() {
        WebElement line = driver.findElement(By.id("message"));
        new WebDriverWait(driver, Duration.ofSeconds(15)).until(d -> List.of("ok", "error")
                .contains(line.getDomAttribute("class")));
        return new Message(line.getText(), "ok".equals(line.getDomAttribute("class")));
    }

    /** Saves what the window shows as {@code target/console/<name>.png}; returns the file. */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.move(driver.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void act(String fieldId, String value, String buttonId) {
        WebElement field = driver.findElement(By.id(fieldId));
        field.clear();
        field.sendKeys(value);
        driver.findElement(By.id(buttonId)).click();
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary profile left behind
            }
        }
    }
}
