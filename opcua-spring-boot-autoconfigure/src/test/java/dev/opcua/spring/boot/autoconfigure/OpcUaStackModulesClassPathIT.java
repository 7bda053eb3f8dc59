package dev.opcua.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.actuate.web.WebMvcEndpointManagementContextConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DeferredImportSelector;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.util.ClassUtils;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * A web application with the Actuator, the console and all of this module's auto-configurations starts on a
 * class path that really lacks the server's or the client's stack module, and serves {@code /actuator/opcua}
 * and the console's JSON. A {@code FilteredClassLoader} hides classes from the conditions only: the classes
 * the application loads still find the hidden ones through the test's class loader. Here the application runs
 * in a class loader of its own over the test's class path less the module's classes, so that a class that
 * names a type of the missing module fails as it would in a client-only or server-only application.
 */
class OpcUaStackModulesClassPathIT {

    @TempDir
    Path pkiDir;

    @Test
    void without_opcua_stack_server_the_endpoint_and_the_console_show_the_clients() throws Exception {
        Map<String, String> answers = runWithout(Set.of("opcua-stack-server", "opcua-stack-history-embedded",
                "opcua-stack-history-jdbc"));

        assertThat(answers.get("server class")).isEqualTo("absent");
        assertThat(answers.get("/actuator/opcua")).contains("\"clients\":{\"plant\":{")
                .contains("\"state\":\"DISCONNECTED\"").doesNotContain("\"applicationUri\"");
        assertThat(answers.get("/opcua-console/api/overview")).contains("\"state\":\"DISCONNECTED\"");
        assertThat(answers.get("/opcua-console/api/browse?node=i=85"))
                .isEqualTo("404 {\"error\":\"this application has no OPC UA server to browse\"}");
    }

    @Test
    void without_opcua_stack_client_the_endpoint_and_the_console_show_the_server() throws Exception {
        Map<String, String> answers = runWithout(Set.of("opcua-stack-client"));

        assertThat(answers.get("client class")).isEqualTo("absent");
        assertThat(answers.get("/actuator/opcua")).contains("\"applicationUri\":\"urn:test:class-path:server\"")
                .contains("\"state\":\"RUNNING\"").doesNotContain("\"plant\"");
        assertThat(answers.get("/opcua-console/api/overview"))
                .contains("\"applicationUri\":\"urn:test:class-path:server\"");
        assertThat(answers.get("/opcua-console/api/browse?node=i=85")).contains("\"browseName\":\"Server\"");
    }

    /** What {@link Application} answers, run in a class loader over the test's class path less the modules. */
    @SuppressWarnings("unchecked")
    private Map<String, String> runWithout(Set<String> modules) throws Exception {
        ClassLoader own = getClass().getClassLoader();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader loader = new ClassPathWithout(modules, own)) {
            thread.setContextClassLoader(loader);
            Class<?> application = loader.loadClass(Application.class.getName());
            assertThat(application.getClassLoader()).isSameAs(loader);
            Object run = application.getConstructor(Path.class).newInstance(pkiDir);
            return ((Callable<Map<String, String>>) run).call();
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * The test's class path less the classes of some modules: their {@code target/classes} and
     * {@code target/test-classes} in the reactor, or their jars. BouncyCastle comes from the test's class loader:
     * its JCA provider is registered once for the whole JVM, and the stack must find the classes of the provider
     * it gets.
     */
    static final class ClassPathWithout extends URLClassLoader {

        private final ClassLoader shared;

        ClassPathWithout(Set<String> modules, ClassLoader shared) throws MalformedURLException {
            super(urls(modules), ClassLoader.getPlatformClassLoader());
            this.shared = shared;
        }

        private static URL[] urls(Set<String> modules) throws MalformedURLException {
            List<URL> urls = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                Path path = Path.of(entry);
                boolean excluded = modules.stream().anyMatch(module -> path.getFileName().toString()
                        .startsWith(module + "-") || containsName(path, module));
                if (!excluded) {
                    urls.add(path.toUri().toURL());
                }
            }
            return urls.toArray(URL[]::new);
        }

        private static boolean containsName(Path path, String name) {
            for (Path element : path) {
                if (element.toString().equals(name)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.bouncycastle.")) {
                return shared.loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    /**
     * The application, loaded by {@link ClassPathWithout}: starts with every auto-configuration of this module
     * and the Actuator's web endpoints, and answers what each URL gives (the status before the body when it is
     * not 200), and whether the server's and the client's classes are there. Only JDK types cross to the test.
     */
    public static final class Application implements Callable<Map<String, String>> {

        private static final List<String> URLS = List.of("/actuator/opcua", "/opcua-console/api/overview",
                "/opcua-console/api/browse?node=i=85");

        private final Path pkiDir;

        public Application(Path pkiDir) {
            this.pkiDir = pkiDir;
        }

        @Override
        public Map<String, String> call() {
            ClassLoader loader = Application.class.getClassLoader();
            Map<String, String> answers = new LinkedHashMap<>();
            answers.put("server class", present("dev.opcua.stack.server.OpcUaServer", loader));
            answers.put("client class", present("dev.opcua.stack.client.OpcUaClient", loader));
            new WebApplicationContextRunner()
                    .withClassLoader(loader)
                    .withUserConfiguration(Mvc.class)
                    .withPropertyValues("management.endpoints.web.exposure.include=opcua",
                            "opcua.console.enabled=true", "opcua.server.port=0",
                            "opcua.server.bind-address=127.0.0.1",
                            "opcua.server.application-uri=urn:test:class-path:server",
                            "opcua.server.security.policies=None", "opcua.server.security.pki-dir=" + pkiDir,
                            "opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:4840/",
                            "opcua.client.connections.plant.connect-on-start=false")
                    .run(context -> {
                        if (context.getStartupFailure() != null) {
                            throw new IllegalStateException("the application did not start",
                                    context.getStartupFailure());
                        }
                        MockMvcTester mvc = MockMvcTester.from(context);
                        for (String url : URLS) {
                            var result = mvc.get().uri(url).exchange();
                            int status = result.getResponse().getStatus();
                            String body = result.getResponse().getContentAsString();
                            answers.put(url, status == 200 ? body : status + " " + body);
                        }
                    });
            return answers;
        }

        private static String present(String className, ClassLoader loader) {
            return ClassUtils.isPresent(className, loader) ? "present" : "absent";
        }

    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    @Import(AutoConfigurationsByName.class)
    static class Mvc {
    }

    /**
     * This module's auto-configurations and the Actuator's web endpoints over Spring MVC, in their order and
     * imported by name as an application imports them: their conditions are then read from the class files.
     * Registered as classes (as {@code ApplicationContextRunner.withConfiguration} does), a condition whose
     * class is absent would be read by reflection, which leaves out what names a missing type.
     */
    static final class AutoConfigurationsByName implements DeferredImportSelector, BeanClassLoaderAware {

        private ClassLoader loader;

        @Override
        public void setBeanClassLoader(ClassLoader loader) {
            this.loader = loader;
        }

        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            Class<?>[] ours = ImportCandidates.load(AutoConfiguration.class, loader).getCandidates().stream()
                    .filter(name -> name.startsWith("dev.opcua."))
                    .map(name -> ClassUtils.resolveClassName(name, loader))
                    .toArray(Class<?>[]::new);
            Class<?>[] sorted = Configurations.getClasses(AutoConfigurations.of(ours),
                    AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
                            JacksonEndpointAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
                            WebMvcEndpointManagementContextConfiguration.class));
            return Arrays.stream(sorted).map(Class::getName).toArray(String[]::new);
        }
    }
}
