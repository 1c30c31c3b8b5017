"""Session.run with string tensors, as TF 2.21's Session: a string scalar comes back as bytes (an array
of bytes objects otherwise), and text fed as Python str is stored as bytes, on the first run and on the
repeated (fast) runs of the same fetches."""

from __future__ import annotations

from . import program


@program
def p_session_string_fetches_and_feeds(tf):
    g = tf.Graph()
    with g.as_default():
        a = tf.constant("a")
        b = tf.constant(["x", "y"])
        p = tf.compat.v1.placeholder(tf.string)
        q = tf.compat.v1.placeholder(tf.string, [None])
        j = tf.strings.join([p, a])
        k = tf.strings.join([q, a])
    out = []
    with tf.compat.v1.Session(graph=g) as s:
        for _ in range(3):
            got = [s.run(a), s.run([a, b]), s.run(j, {p: "q"}), s.run(j, {p: b"r"}), s.run((a,)), s.run({"k": a}),
                   s.run(k, {q: ["u", "v"]})]
            out.append(repr(got))
    return out
