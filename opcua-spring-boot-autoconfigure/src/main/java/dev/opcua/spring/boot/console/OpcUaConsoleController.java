package dev.opcua.spring.boot.console;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import java.net.URI;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The console's page and JSON under {@value #PATH}: {@code GET /opcua-console/} the page,
 * {@code /opcua-console/api/overview}, {@code /opcua-console/api/browse?node=i=85},
 * {@code /opcua-console/api/read?node=ns=2;s=FillingLine.ActualSpeed}; {@code GET /opcua-console/api/access}
 * and {@code POST /opcua-console/api/write} for the users a {@link ConsoleWriteAccess} lets write. Its script
 * and style sheet are static resources under {@value #RESOURCES}, served by a resource handler of the
 * application's web stack.
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

    /** The request attribute where Spring Security's servlet filter leaves the CSRF token. */
    private static final String CSRF_ATTRIBUTE = "_csrf";

    private static final Resource INDEX = new ClassPathResource("META-INF/opcua-console/index.html");

    private static final Logger log = LoggerFactory.getLogger(OpcUaConsoleController.class);

    private final OpcUaConsole console;
    private final ConsoleWriteAccess writeAccess;
    private final ConsoleWriteAudit audit;

    /** A console that only reads: writing is off. */
    public OpcUaConsoleController(OpcUaConsole console) {
        this(console, ConsoleWriteAccess.DISABLED, ConsoleWriteAudit.NONE);
    }

    /**
     * @param writeAccess who may write variables
     * @param audit where writes are recorded
     */
    public OpcUaConsoleController(OpcUaConsole console, ConsoleWriteAccess writeAccess, ConsoleWriteAudit audit) {
        this.console = Objects.requireNonNull(console, "console");
        this.writeAccess = Objects.requireNonNull(writeAccess, "writeAccess");
        this.audit = Objects.requireNonNull(audit, "audit");
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

    /**
     * Whether the signed-in user may write ({@code write}, else {@code reason}), and the CSRF token a write must
     * carry ({@code csrf}: {@code header} and {@code token}) when Spring Security's servlet filter made one.
     */
    @GetMapping("/api/access")
    public Map<String, Object> access(Principal user,
            @RequestAttribute(name = CSRF_ATTRIBUTE, required = false) Object csrf) {
        ConsoleWriteAccess.Decision decision = writeAccess.decide(user);
        Map<String, Object> access = new LinkedHashMap<>();
        access.put("write", decision.allowed());
        if (!decision.allowed()) {
            access.put("reason", decision.reason());
        }
        access.put("csrf", decision.allowed() ? writeAccess.csrf(csrf) : Map.of());
        return access;
    }

    /**
     * Writes a Variable's Value typed for its DataType: 403 with the reason for a user who may not write, 400 for
     * a value that is no value of the DataType, else 200 with the Write's status (Bad ones included), recorded
     * with the user, the node and the old and new value.
     */
    @PostMapping("/api/write")
    public CompletableFuture<ResponseEntity<Object>> write(@RequestBody WriteRequest request, Principal user) {
        ConsoleWriteAccess.Decision decision = writeAccess.decide(user);
        String userName = user == null ? "anonymous" : user.getName();
        if (!decision.allowed()) {
            log.info("console write of {} by {} refused: {}", request.node(), userName, decision.reason());
            return CompletableFuture.completedFuture(
                    ResponseEntity.status(HttpStatus.FORBIDDEN).body(Map.of("error", decision.reason())));
        }
        if (request.node() == null || request.value() == null) {
            throw new IllegalArgumentException("a write needs 'node' (a NodeId) and 'value' (text of its DataType)");
        }
        return console.write(request.node(), request.value()).thenApply(written -> {
            log.info("console write by {}: {} {} -> {} ({})", userName, written.nodeId(), written.oldValue(),
                    written.newValue(), written.status());
            audit.written(userName, written);
            return ResponseEntity.ok(written);
        });
    }

    /**
     * A write from the page.
     *
     * @param node the Variable's NodeId text
     * @param value the new value as typed
     */
    public record WriteRequest(String node, String value) {
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
