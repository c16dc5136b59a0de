package io.github.flashstock.inventory.events;

import java.util.List;
import org.apache.rocketmq.spring.support.RocketMQMessageConverter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.converter.ByteArrayMessageConverter;
import org.springframework.messaging.converter.CompositeMessageConverter;
import org.springframework.messaging.converter.JacksonJsonMessageConverter;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.converter.StringMessageConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * How stock events and reconciliation reports become RocketMQ message bodies, and back: JSON written and read by
 * the same Jackson 3 {@link JsonMapper} Spring uses for the HTTP API. rocketmq-spring 2.3.5 knows only Jackson 2
 * and would convert with an {@code ObjectMapper} of its own (it brings Jackson 2 along for that); with this bean
 * it does not, so the service writes all its JSON with one library and one set of settings. The body format is
 * the one consumers already read: an object per message, instants as ISO-8601 text.
 */
@Configuration(proxyBeanMethods = false)
class EventJson {

    @Bean
    RocketMQMessageConverter rocketMQMessageConverter(JsonMapper json) {
        return new JacksonThreeConverter(json);
    }

    /** rocketmq-spring asks this for its converter; bytes and strings pass as they are, anything else is JSON. */
    static final class JacksonThreeConverter extends RocketMQMessageConverter {

        private final CompositeMessageConverter converter;

        JacksonThreeConverter(JsonMapper json) {
            ByteArrayMessageConverter bytes = new ByteArrayMessageConverter();
            bytes.setContentTypeResolver(null); // bytes whatever the content type says, as rocketmq-spring does
            this.converter = new CompositeMessageConverter(List.of(bytes, new StringMessageConverter(),
                    new JacksonJsonMessageConverter(json)));
        }

        @Override
        public MessageConverter getMessageConverter() {
            return converter;
        }
    }
}
