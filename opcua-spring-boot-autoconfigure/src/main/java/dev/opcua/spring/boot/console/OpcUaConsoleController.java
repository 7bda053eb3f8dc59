package dev.opcua.spring.boot.console;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's page and JSON under {@value #PATH}: {@code GET /opcua-console/} the page,
 * {@code /opcua-console/api/overview}, {@code /opcua-console/api/browse?node=i=85},
 * {@code /opcua-console/api/read?node=ns=2;s=FillingLine.ActualSpeed}. Its script and style sheet are
 * static resources under {@value #RESOURCES}, served by a resource handler of the application's web stack.
 *
 * <p>Written against spring-web only, so that Spring MVC and WebFlux both run it: browse and read return
 * the address space's {@link CompletableFuture}, which MVC completes asynchronously and WebFlux adapts,
 * so no request thread waits on a node manager.
 */
@RestController
@RequestMapping(OpcUaConsoleController.PATH)
public class OpcUaConsoleController {

    /** Where the console is, as H2's is at {@code /h2-console}. */
    public static final String PATH = "/opcua-console";

    /** Where the page, script and style sheet are on the class path (outside {@code META-INF/resources}, which
     * Spring Boot serves by itself, so that a disabled console serves nothing). */
    public static final String RESOURCES = "classpath:/META-INF/opcua-console/";

    private static final Resource INDEX = new ClassPathResource("META-INF/opcua-console/index.html");

    private final OpcUaConsole console;

    public OpcUaConsoleController(OpcUaConsole console) {
        this.console = console;
    }

    /** {@code /opcua-console} to {@code /opcua-console/}, so that the page's relative links resolve below it. */
    @GetMapping
    public ResponseEntity<Void> redirect() {
        return ResponseEntity.status(HttpStatus.FOUND).location(URI.create("opcua-console/")).build();
    }

    @GetMapping("/")
    public ResponseEntity<Resource> page() {
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noCache()).body(INDEX);
    }

    @GetMapping("/api/overview")
    public OpcUaEndpoint.OpcUaServerDescriptor overview() {
        return console.overview();
    }

    @GetMapping("/api/browse")
    public CompletableFuture<List<ConsoleAddressSpace.ConsoleNode>> browse(
            @RequestParam(name = "node", defaultValue = "i=85") String node) {
        return console.browse(node);
    }

    @GetMapping("/api/read")
    public CompletableFuture<ConsoleAddressSpace.ConsoleValue> read(@RequestParam("node") String node) {
        return console.read(node);
    }

    @ExceptionHandler(IllegalArgumentException.class)
    public ResponseEntity<Map<String, String>> badNodeId(IllegalArgumentException e) {
        return error(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(ConsoleNodeException.class)
    public ResponseEntity<Map<String, String>> unknownNode(ConsoleNodeException e) {
        return error(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(IllegalStateException.class)
    public ResponseEntity<Map<String, String>> noServer(IllegalStateException e) {
        return error(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(TimeoutException.class)
    public ResponseEntity<Map<String, String>> timeout(TimeoutException e) {
        return error(HttpStatus.GATEWAY_TIMEOUT, "the node manager did not answer in time");
    }

    private static ResponseEntity<Map<String, String>> error(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(Map.of("error", String.valueOf(message)));
    }
}
