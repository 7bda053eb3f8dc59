package dev.opcua.spring.boot.console;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /opcua-console/api/pubsub}: the console's PubSub card ({@link ConsolePubSub}). Made only when the
 * application runs PubSub ({@code opcua-stack-pubsub} on the class path, {@code opcua.pubsub.enabled=true}); without
 * it the URL answers 404 and the page shows no card.
 */
@RestController
@RequestMapping(OpcUaConsoleController.PATH)
public class OpcUaConsolePubSubController {

    private final ConsolePubSub pubSub;

    public OpcUaConsolePubSubController(ConsolePubSub pubSub) {
        this.pubSub = pubSub;
    }

    @GetMapping("/api/pubsub")
    public ConsolePubSub.PubSubOverview pubSub() {
        return pubSub.overview();
    }
}
