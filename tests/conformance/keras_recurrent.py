"""SimpleRNN, LSTM, GRU and Bidirectional against Keras 3 with fixed weights: sequences, final states,
go_backwards, masks, initial states, stateful calls, weight paths and configs."""

from __future__ import annotations

from . import data, fixed_weights, program, val


@program
def p_keras_rnn_layers(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = tf.constant(data((2, 4, 2)))
    mask = tf.constant([[True, True, False, True], [True, False, False, True]])
    results = []
    for cls in [keras.layers.SimpleRNN, keras.layers.LSTM, keras.layers.GRU]:
        full = cls(3, return_sequences=True, return_state=True)
        full(x)
        fixed_weights(full)
        last = cls(3, go_backwards=True)
        last(x)
        fixed_weights(last)
        results.append([val(full(x)), val(full(x, mask=mask)), val(last(x)), [w.path for w in full.weights]])
    lstm = keras.layers.LSTM(3)
    lstm(x)
    fixed_weights(lstm)
    start = [tf.constant(data((2, 3), seed=7)), tf.constant(data((2, 3), seed=8))]
    results.append(val(lstm(x, initial_state=start)))
    config = keras.layers.GRU(4, return_sequences=True).get_config()
    config.pop("dtype")
    results.append(val(config))
    return results


@program
def p_keras_bidirectional_and_stateful(tf):
    keras = tf.keras
    keras.backend.clear_session()
    x = tf.constant(data((2, 3, 2)))
    bi = keras.layers.Bidirectional(keras.layers.LSTM(2, return_sequences=True))
    bi(x)
    fixed_weights(bi)
    bi_sum = keras.layers.Bidirectional(keras.layers.GRU(2), merge_mode="sum")
    bi_sum(x)
    fixed_weights(bi_sum)
    stateful = keras.layers.SimpleRNN(2, stateful=True)
    model = keras.Sequential([keras.Input(batch_shape=(2, 3, 2)), stateful])
    fixed_weights(stateful)
    first, second = model(x), model(x)
    stateful.reset_states()
    third = model(x)
    return [val(bi(x)), [w.path for w in bi.weights], val(bi_sum(x)), val(first), val(second), val(third)]
