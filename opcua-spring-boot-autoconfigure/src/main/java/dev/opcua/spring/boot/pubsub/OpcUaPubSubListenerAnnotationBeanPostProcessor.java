package dev.opcua.spring.boot.pubsub;

import dev.opcua.spring.boot.client.listener.adapter.ValueConverter;
import dev.opcua.spring.boot.client.listener.adapter.ValueConverters;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.runtime.DataSetListener;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Function;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link OpcUaPubSubListener} methods on beans and registers a {@link DataSetListener} for each with
 * {@link OpcUaPubSubListeners}. A parameter that cannot be fed fails the bean's creation naming the method.
 */
public class OpcUaPubSubListenerAnnotationBeanPostProcessor implements BeanPostProcessor {

    private static final Log log = LogFactory.getLog(OpcUaPubSubListenerAnnotationBeanPostProcessor.class);

    private final OpcUaPubSubListeners listeners;

    public OpcUaPubSubListenerAnnotationBeanPostProcessor(OpcUaPubSubListeners listeners) {
        this.listeners = listeners;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopUtils.getTargetClass(bean);
        var methods = MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<OpcUaPubSubListener>)
                method -> AnnotatedElementUtils.findMergedAnnotation(method, OpcUaPubSubListener.class));
        methods.forEach((method, annotation) -> {
            Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
            ReflectionUtils.makeAccessible(invocable);
            listeners.add(annotation.reader(), listener(bean, beanName, invocable, annotation));
        });
        return bean;
    }

    private static DataSetListener listener(Object bean, String beanName, Method method, OpcUaPubSubListener annotation) {
        String where = beanName + "." + method.getName();
        Class<?>[] parameters = method.getParameterTypes();
        String field = annotation.field();
        @SuppressWarnings("unchecked")
        Function<ReceivedDataSet, Object>[] arguments = new Function[parameters.length];
        boolean valueTaken = false;
        for (int i = 0; i < parameters.length; i++) {
            Class<?> p = parameters[i];
            if (p == ReceivedDataSet.class) {
                arguments[i] = dataSet -> dataSet;
            } else if (field.isEmpty()) {
                throw new BeanInitializationException("@OpcUaPubSubListener " + where + ": without a field the"
                        + " method takes one ReceivedDataSet parameter, not a " + p.getName());
            } else if (p == DataValue.class) {
                arguments[i] = dataSet -> dataSet.fields().get(field);
            } else if (!valueTaken) {
                ValueConverter converter = ValueConverters.forType(p);
                if (converter == null) {
                    throw new BeanInitializationException("@OpcUaPubSubListener " + where + ": parameter " + i
                            + " is a " + p.getName() + "; a field's value is " + ValueConverters.supportedTypes());
                }
                valueTaken = true;
                arguments[i] = dataSet -> {
                    DataValue value = dataSet.fields().get(field);
                    return converter.convert(value == null ? Variant.NULL : value.value());
                };
            } else {
                throw new BeanInitializationException("@OpcUaPubSubListener " + where + ": parameter " + i + " ("
                        + p.getName() + ") is a second value parameter; one value, DataValue and ReceivedDataSet");
            }
        }
        return dataSet -> {
            if (!field.isEmpty() && !dataSet.fields().containsKey(field)) {
                return;
            }
            Object[] values = new Object[arguments.length];
            try {
                for (int i = 0; i < values.length; i++) {
                    values[i] = arguments[i].apply(dataSet);
                }
                method.invoke(bean, values);
            } catch (InvocationTargetException e) {
                log.warn("@OpcUaPubSubListener " + where + " failed on a data set of reader " + dataSet.reader(),
                        e.getCause());
            } catch (ReflectiveOperationException | RuntimeException e) {
                log.warn("@OpcUaPubSubListener " + where + " could not take a data set of reader " + dataSet.reader()
                        + ": " + e.getMessage());
            }
        };
    }
}
