package dev.opcua.spring.boot.autoconfigure.diagnostics;

import java.util.List;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * The report Spring Boot prints for a start-up failure: the analysis of the first registered failure
 * analyzer that recognises it (ours, or Spring Boot's for a constraint of a properties class).
 */
public final class StartupFailures {

    private StartupFailures() {
    }

    /** The analysis of {@code failure}; null when no analyzer recognises it. */
    public static FailureAnalysis analyze(Throwable failure) {
        // analyzers that need constructor arguments only a running application has are left out
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(
                StartupFailures.class.getClassLoader()).load(FailureAnalyzer.class,
                SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { }));
        for (FailureAnalyzer analyzer : analyzers) {
            FailureAnalysis analysis = analyzer.analyze(failure);
            if (analysis != null) {
                return analysis;
            }
        }
        return null;
    }
}
