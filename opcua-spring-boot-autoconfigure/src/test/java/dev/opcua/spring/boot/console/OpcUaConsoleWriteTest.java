package dev.opcua.spring.boot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;

import dev.opcua.spring.boot.autoconfigure.console.InvalidOpcUaConsolePropertyException;
import dev.opcua.spring.boot.autoconfigure.console.OpcUaConsoleAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * Writing a variable from the console: off unless {@code opcua.console.write-role} names a Spring Security role,
 * then only for that role's users, typed from the DataType, with the Write's status, and audited.
 */
class OpcUaConsoleWriteTest {

    private static final RequestPostProcessor ENGINEER = httpBasic("engineer", "secret");
    private static final RequestPostProcessor OPERATOR = httpBasic("operator", "secret");

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaConsoleAutoConfiguration.class))
            .withUserConfiguration(OpcUaConsoleSecurityTest.Secured.class, Audits.class)
            .withBean(InMemoryNodeManager.class, ConsoleTestPlant::plant)
            .withPropertyValues(ConsoleTestPlant.PROPERTIES);

    private static MockMvcTester mvc(WebApplicationContext context) {
        return MockMvcTester.create(MockMvcBuilders.webAppContextSetup(context)
                .apply(SecurityMockMvcConfigurers.springSecurity()).build());
    }

    private static String node(WebApplicationContext context, String path) {
        return context.getBean(InMemoryNodeManager.class).nodeId(path).toString();
    }

    private static String body(String node, String value) {
        return "{\"node\":\"" + node + "\",\"value\":\"" + value + "\"}";
    }

    @Test
    void without_a_write_role_nobody_may_write_and_the_answer_says_how_to_allow_it() {
        contextRunner.run(context -> {
            MockMvcTester mvc = mvc(context);
            assertThat(mvc.post().uri("/opcua-console/api/write").with(ENGINEER).with(csrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body(node(context, "Line.SetPoint"), "42")))
                    .hasStatus(403).bodyJson().extractingPath("$.error").asString()
                    .contains("opcua.console.write-role");
            assertThat(mvc.get().uri("/opcua-console/api/access").with(ENGINEER)).hasStatusOk().bodyJson()
                    .extractingPath("$.write").isEqualTo(false);
        });
    }

    @Test
    void a_user_without_the_write_role_is_refused_with_403_naming_the_role() {
        contextRunner.withPropertyValues("opcua.console.write-role=ENGINEER").run(context -> {
            MockMvcTester mvc = mvc(context);
            assertThat(mvc.post().uri("/opcua-console/api/write").with(OPERATOR).with(csrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body(node(context, "Line.SetPoint"), "42")))
                    .hasStatus(403).bodyJson().extractingPath("$.error")
                    .isEqualTo("user operator does not have the role ENGINEER that writing needs "
                            + "(opcua.console.write-role)");
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", node(context, "Line.SetPoint"))
                    .with(OPERATOR)).bodyJson().extractingPath("$.value").isEqualTo("100.0");
            var access = assertThat(mvc.get().uri("/opcua-console/api/access").with(OPERATOR)).hasStatusOk()
                    .bodyJson();
            access.extractingPath("$.write").isEqualTo(false);
            access.extractingPath("$.reason").asString().contains("ENGINEER");
        });
    }

    @Test
    void a_user_with_the_role_writes_a_value_typed_from_the_data_type_and_the_write_is_audited() {
        contextRunner.withPropertyValues("opcua.console.write-role=ROLE_ENGINEER").run(context -> {
            MockMvcTester mvc = mvc(context);
            String setPoint = node(context, "Line.SetPoint");
            var access = assertThat(mvc.get().uri("/opcua-console/api/access").with(ENGINEER)).hasStatusOk()
                    .bodyJson();
            access.extractingPath("$.write").isEqualTo(true);
            access.extractingPath("$.csrf.header").isEqualTo("X-CSRF-TOKEN");
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", setPoint).with(ENGINEER)).bodyJson()
                    .extractingPath("$.writable").isEqualTo(true);

            var written = assertThat(mvc.post().uri("/opcua-console/api/write").with(ENGINEER).with(csrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body(setPoint, "42"))).hasStatusOk().bodyJson();
            written.extractingPath("$.status").isEqualTo("Good");
            written.extractingPath("$.dataType").isEqualTo("Double");
            written.extractingPath("$.oldValue").isEqualTo("100.0");
            written.extractingPath("$.newValue").isEqualTo("42.0");
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", setPoint).with(ENGINEER)).bodyJson()
                    .extractingPath("$.value").isEqualTo("42.0");

            List<AuditApplicationEvent> audits = context.getBean(Audits.class).events;
            assertThat(audits).singleElement().satisfies(event -> {
                assertThat(event.getAuditEvent().getPrincipal()).isEqualTo("engineer");
                assertThat(event.getAuditEvent().getType()).isEqualTo("OPCUA_CONSOLE_WRITE");
                assertThat(event.getAuditEvent().getData()).containsEntry("node", setPoint)
                        .containsEntry("oldValue", "100.0").containsEntry("newValue", "42.0")
                        .containsEntry("status", "Good");
            });
        });
    }

    @Test
    void a_bad_value_is_refused_with_400_and_a_read_only_variable_answers_bad_not_writable() {
        contextRunner.withPropertyValues("opcua.console.write-role=ENGINEER").run(context -> {
            MockMvcTester mvc = mvc(context);
            assertThat(mvc.post().uri("/opcua-console/api/write").with(ENGINEER).with(csrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body(node(context, "Line.SetPoint"), "fast")))
                    .hasStatus(400).bodyJson().extractingPath("$.error")
                    .isEqualTo("'fast' is not a Double (a number such as 12.5 or -3e2)");
            assertThat(mvc.get().uri("/opcua-console/api/read").param("node", node(context, "Line.Speed"))
                    .with(ENGINEER)).bodyJson().extractingPath("$.writable").isEqualTo(false);
            assertThat(mvc.post().uri("/opcua-console/api/write").with(ENGINEER).with(csrf())
                    .contentType(MediaType.APPLICATION_JSON).content(body(node(context, "Line.Speed"), "2")))
                    .hasStatusOk().bodyJson().extractingPath("$.status").isEqualTo("BadNotWritable");
        });
    }

    @Test
    void a_write_role_without_spring_security_stops_the_start_naming_the_key() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaConsoleAutoConfiguration.class))
                .withUserConfiguration(ConsoleMvc.class)
                .withClassLoader(new FilteredClassLoader(Authentication.class))
                .withPropertyValues(ConsoleTestPlant.PROPERTIES)
                .withPropertyValues("opcua.console.write-role=ENGINEER")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().isInstanceOf(InvalidOpcUaConsolePropertyException.class)
                        .hasMessageStartingWith("opcua.console.write-role=ENGINEER: ")
                        .hasMessageContaining("Spring Security is not on the class path"));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    static class ConsoleMvc {
    }

    /** The audit events of the application, as its AuditEventRepository would get them. */
    @Configuration(proxyBeanMethods = false)
    static class Audits implements ApplicationListener<AuditApplicationEvent> {

        final List<AuditApplicationEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(AuditApplicationEvent event) {
            events.add(event);
        }
    }
}
