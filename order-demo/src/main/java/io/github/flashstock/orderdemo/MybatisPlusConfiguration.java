package io.github.flashstock.orderdemo;

import com.baomidou.mybatisplus.annotation.DbType;
import com.baomidou.mybatisplus.extension.plugins.MybatisPlusInterceptor;
import com.baomidou.mybatisplus.extension.plugins.inner.PaginationInnerInterceptor;
import io.github.flashstock.support.web.Paging;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * MyBatis-Plus's one plugin here: pagination, for the queries that take a {@code Page} (the admin listings). It
 * adds the {@code LIMIT} and runs the {@code COUNT}; a query without a {@code Page} passes through untouched.
 */
@Configuration(proxyBeanMethods = false)
class MybatisPlusConfiguration {

    @Bean
    MybatisPlusInterceptor mybatisPlusInterceptor() {
        PaginationInnerInterceptor pages = new PaginationInnerInterceptor(DbType.MARIADB);
        // the controllers refuse larger pages; this caps any other caller's
        pages.setMaxLimit((long) Paging.MAX_SIZE);
        MybatisPlusInterceptor interceptor = new MybatisPlusInterceptor();
        interceptor.addInnerInterceptor(pages);
        return interceptor;
    }
}
