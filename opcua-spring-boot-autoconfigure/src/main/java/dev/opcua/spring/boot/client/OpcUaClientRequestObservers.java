package dev.opcua.spring.boot.client;

import dev.opcua.stack.client.services.RequestObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes the {@link RequestObserver} of one connection's client (metrics, tracing). Every bean of this
 * type contributes; the client gets all of them at once, each request observed by each.
 */
@FunctionalInterface
public interface OpcUaClientRequestObservers {

    /**
     * @param connection the connection's name
     * @return the observer of that connection's requests, or {@link RequestObserver#NONE}
     */
    RequestObserver create(String connection);

    /** One observer that hands every request to each of {@code observers}; NONE when there is none. */
    static RequestObserver composite(List<RequestObserver> observers) {
        List<RequestObserver> active = observers.stream().filter(o -> o != RequestObserver.NONE).toList();
        if (active.isEmpty()) {
            return RequestObserver.NONE;
        }
        if (active.size() == 1) {
            return active.get(0);
        }
        return service -> {
            List<RequestObserver.Call> calls = new ArrayList<>(active.size());
            for (RequestObserver observer : active) {
                RequestObserver.Call call = observer.started(service);
                if (call != null) {
                    calls.add(call);
                }
            }
            return calls.isEmpty() ? null : (status, failure) -> calls.forEach(c -> c.finished(status, failure));
        };
    }
}
