/* Reflect -- reading an upstream object's private field and calling a
 * package-private method, so that the harness calls the released classes
 * instead of copying what they do. Every use names the upstream member. */
package regionsim.reference;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

final class Reflect {
    private Reflect() {
    }

    static Object field(Object obj, Class<?> owner, String name) {
        try {
            Field f = owner.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(obj);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(owner.getName() + "." + name + " not readable", e);
        }
    }

    static Object call(Object obj, Class<?> owner, String name, Class<?>[] types, Object... args) {
        try {
            Method m = owner.getDeclaredMethod(name, types);
            m.setAccessible(true);
            return m.invoke(obj, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(owner.getName() + "." + name + " threw", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(owner.getName() + "." + name + " not callable", e);
        }
    }
}
