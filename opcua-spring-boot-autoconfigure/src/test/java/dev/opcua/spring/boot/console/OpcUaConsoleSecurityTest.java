package dev.opcua.spring.boot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;

import dev.opcua.spring.boot.autoconfigure.console.OpcUaConsoleAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

/**
 * The console behind Spring Security: it is an ordinary part of the application's URL space, so the
 * application's SecurityFilterChain protects it as it protects Actuator (docs/CONFIGURATION.md, "Console").
 */
class OpcUaConsoleSecurityTest {

    private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaConsoleAutoConfiguration.class))
            .withUserConfiguration(Secured.class)
            .withPropertyValues(ConsoleTestPlant.PROPERTIES);

    @Test
    void an_unauthenticated_request_is_refused_with_401() {
        contextRunner.run(context -> {
            MockMvcTester mvc = secured(context);
            assertThat(mvc.get().uri("/opcua-console/")).hasStatus(401);
            assertThat(mvc.get().uri("/opcua-console/api/overview")).hasStatus(401);
            assertThat(mvc.get().uri("/opcua-console/api/browse")).hasStatus(401);
            assertThat(mvc.get().uri("/opcua-console/console.js")).hasStatus(401);
        });
    }

    @Test
    void an_authenticated_operator_gets_the_page_and_its_data() {
        contextRunner.run(context -> {
            MockMvcTester mvc = secured(context);
            assertThat(mvc.get().uri("/opcua-console/").with(httpBasic("operator", "secret"))).hasStatusOk();
            assertThat(mvc.get().uri("/opcua-console/api/overview").with(httpBasic("operator", "secret")))
                    .hasStatusOk().bodyJson().extractingPath("$.server.state").isEqualTo("RUNNING");
            assertThat(mvc.get().uri("/opcua-console/api/overview").with(httpBasic("operator", "wrong")))
                    .hasStatus(401);
        });
    }

    private static MockMvcTester secured(WebApplicationContext context) {
        MockMvc mvc = MockMvcBuilders.webAppContextSetup(context)
                .apply(org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity())
                .build();
        return MockMvcTester.create(mvc);
    }

    /**
     * What an application does: everything below /opcua-console needs a user, over HTTP Basic here; an operator
     * and an engineer (the role writing needs in {@link OpcUaConsoleWriteTest}).
     */
    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    @EnableWebSecurity
    static class Secured {

        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests
                            .requestMatchers("/opcua-console/**").authenticated()
                            .anyRequest().permitAll())
                    .httpBasic(Customizer.withDefaults())
                    .build();
        }

        @Bean
        InMemoryUserDetailsManager users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("operator").password("{noop}secret").roles("OPERATOR").build(),
                    User.withUsername("engineer").password("{noop}secret").roles("ENGINEER").build());
        }
    }
}
