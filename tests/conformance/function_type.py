"""ConcreteFunction.function_type (the tf.function guide prints it): parameters with their traced types
(Python values as Literal[...], keyword-only after `*`, positional-only with *args), the output type, the
captures, and the flat input and output specs, as TF 2.21 prints them."""

from __future__ import annotations

from . import program


@program
def p_concrete_function_type(tf):
    v = tf.Variable(1.0)

    @tf.function
    def f(a, b=2, *, c=None):
        return {"x": a, "y": (a, a)}

    @tf.function
    def g(a, b=None, *args):
        return [a * v, None, 3]

    @tf.function
    def double(a):
        return a + a

    cf = f.get_concrete_function(tf.constant("s"), 3, c=tf.TensorSpec([None], tf.float32))
    cg = g.get_concrete_function(tf.TensorSpec([None], tf.float32), "x")
    cd = double.get_concrete_function(tf.constant("a"))
    return [str(cf.function_type), repr(cf.function_type).splitlines()[:6], list(cf.function_type.parameters),
            str(cg.function_type), repr(cg.function_type).splitlines()[:5], str(cd.function_type),
            [repr(s) for s in cf.function_type.flat_inputs], [repr(s) for s in cg.function_type.flat_outputs],
            len(cg.function_type.captures)]
