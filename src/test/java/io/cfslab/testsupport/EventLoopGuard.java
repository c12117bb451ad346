package io.cfslab.testsupport;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * TEST-ONLY: records every JDBC connection taken on a Netty event-loop thread (a blocking call where none
 * may happen). Tests assert {@link #violations} stays empty.
 */
@TestConfiguration(proxyBeanMethods = false)
public class EventLoopGuard {
    /** Thread names and stack heads of JDBC use on an event loop. */
    public static final List<String> violations = new CopyOnWriteArrayList<>();

    @Bean
    static BeanPostProcessor eventLoopDataSourceGuard() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof DataSource ds && !(bean instanceof DelegatingDataSource)) {
                    return new DelegatingDataSource(ds) {
                        @Override
                        public Connection getConnection() throws SQLException {
                            check();
                            return super.getConnection();
                        }

                        @Override
                        public Connection getConnection(String user, String password) throws SQLException {
                            check();
                            return super.getConnection(user, password);
                        }
                    };
                }
                return bean;
            }
        };
    }

    private static void check() {
        String t = Thread.currentThread().getName();
        if (t.startsWith("reactor-http") || t.contains("epoll") || t.contains("nio-")) {
            StackTraceElement[] st = new Throwable().getStackTrace();
            StringBuilder sb = new StringBuilder(t);
            for (int i = 0; i < Math.min(12, st.length); i++) sb.append("\n  at ").append(st[i]);
            violations.add(sb.toString());
        }
    }
}
