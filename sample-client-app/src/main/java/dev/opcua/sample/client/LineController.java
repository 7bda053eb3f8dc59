package dev.opcua.sample.client;

import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /line}: the latest values of the filling line and its last trips, as JSON. */
@RestController
public class LineController {

    private final LineValues values;

    public LineController(LineValues values) {
        this.values = values;
    }

    @GetMapping("/line")
    public Map<String, Object> line() {
        return values.snapshot();
    }
}
