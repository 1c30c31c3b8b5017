"""TF1 GraphDefs into tinytf: the node-by-node replay of import_graph_def, with what TF1 graphs add to TF2's.

- Reference variables: `VariableV2` becomes a tinytf variable (uninitialized in every session until the imported
  `Assign` runs, as in TF1); any other op reading it reads its value (TF1's automatic dereference of refs).
- TF1 control flow is rebuilt as tinytf's structured ops. TF1 writes a `tf.cond` as `Switch` nodes (one per
  value the branches use), the branches' nodes, and `Merge` nodes (one per result), all under the cond's name
  scope `C/`, with its predicate in `C/pred_id`. It writes a `tf.while_loop` as a frame: per loop variable
  `Enter -> Merge -> Switch -> (body) -> NextIteration -> Merge` and `Switch -> Exit`, with a `LoopCond`, and
  constant `Enter`s for the values the loop reads from outside. Each such scope is one unit of the replay: once
  the values it reads from outside exist, it becomes one `tf.cond` (branch b replays the nodes that lead from
  the Switches' output b to the Merges' input b) or one `tf.while_loop` (its cond and body replay the nodes
  that lead from the Merges to LoopCond and to the NextIterations). Scopes nest (a cond in a loop body).
- Control inputs (`^init_deps`): a NoOp with control inputs (the `init` op of global_variables_initializer)
  becomes a group of the ops its inputs created; other nodes get the stateful ops their control inputs made
  as control inputs, so fetching them runs those first."""

from __future__ import annotations

import tinytf as tf
from tinytf.runtime.context import state
from tinytf.runtime.resource import Resource

from ..saved_model.attr_codec import array_of_proto

_REF_TAKERS = frozenset({"Assign", "AssignAdd", "AssignSub"})  # ops that take a VariableV2 itself, not its value


def _split(ref: str):
    """'node:1' -> ('node', 1); 'node' -> ('node', 0); '^node' -> ('node', None) (a control input)."""
    if ref.startswith("^"):
        return ref[1:], None
    name, _, index = ref.partition(":")
    return name, int(index) if index else 0


def _key(ref: str) -> str:
    name, index = _split(ref)
    return f"{name}:{index}"


class Replay:
    """Replays a GraphDef's nodes with `convert(nodedef, inputs, constants)` for ordinary ops, building the TF1
    control-flow scopes as tinytf cond / while_loop. `env` maps 'node:i' to values (tensors or variables)."""

    def __init__(self, nodes, convert, special=None, supported=None):
        self.by_name = {n.name: n for n in nodes}
        self.order = {n.name: i for i, n in enumerate(nodes)}
        self.convert = convert
        self.special = special or (lambda nd: None)  # placeholders and input_map: a value list, or None
        self.supported = supported or (lambda nd: True)
        self.missing: dict = {}  # node name -> why it has no value (an op without a converter, or fed by one)
        self.refs: set = set()  # ids of the variables that VariableV2 nodes made (read when used as values)
        self.created: dict = {}  # node name -> the IR nodes its conversion added (for control inputs)
        self.contexts = self._contexts()

    # --- scopes ---------------------------------------------------------------------------------------------
    def _contexts(self) -> dict:
        contexts = {}
        for nd in self.by_name.values():
            if nd.op == "LoopCond":
                contexts[nd.name.rpartition("/")[0]] = "while"
        for nd in self.by_name.values():
            if nd.op == "Merge" and not any(self.by_name.get(_split(r)[0]) is not None
                                            and self.by_name[_split(r)[0]].op == "NextIteration" for r in nd.input):
                scope = nd.name.rpartition("/")[0]
                if scope not in contexts:
                    if f"{scope}/pred_id" not in self.by_name:
                        raise ValueError(f"import_graph_def: the Merge node {nd.name!r} is not part of a tf.cond "
                                         f"scope TF1 writes (no {scope}/pred_id node); tinytf cannot rebuild it")
                    contexts[scope] = "cond"
        return contexts

    def unit_of(self, name: str, within: str | None):
        """The outermost control-flow scope inside `within` that holds node `name`, or None for a plain node."""
        best = None
        for scope in self.contexts:
            if name.startswith(scope + "/") and (within is None or scope.startswith(within + "/")):
                if best is None or len(scope) < len(best):
                    best = scope
        return best

    def members(self, scope: str) -> list:
        return sorted((n for n in self.by_name.values() if n.name.startswith(scope + "/")),
                      key=lambda n: self.order[n.name])

    # --- evaluation -----------------------------------------------------------------------------------------
    def value(self, ref: str, env: dict, within=None):
        """The value of tensor `ref`, replaying whatever it needs that `env` does not hold yet."""
        key = _key(ref)
        if key not in env:
            self.ensure(_split(ref)[0], env, within, ())
            if _split(ref)[0] in self.missing:
                raise ValueError(self.missing[_split(ref)[0]])
            if key not in env:
                raise ValueError(f"import_graph_def: {ref!r} has no value (a TF1 control-flow layout tinytf does "
                                 "not rebuild)")
        return env[key]

    def ensure(self, name: str, env: dict, within, stack):
        if f"{name}:0" in env or ("done", name) in env:
            return
        scope = self.unit_of(name, within)
        unit = scope or name
        if unit in stack:
            raise ValueError(f"import_graph_def: the GraphDef has a cycle through {unit!r} outside any TF1 loop frame")
        if ("done", unit) in env:
            return
        stack = stack + (unit,)
        if scope is None:
            nd = self.by_name.get(name)
            if nd is None:
                raise ValueError(f"import_graph_def: the GraphDef has no node {name!r}")
            for ref in nd.input:
                self.ensure(_split(ref)[0], env, within, stack)
            self._convert(nd, env)
        else:
            inside = {n.name for n in self.members(scope)}
            for member in self.members(scope):
                for ref in member.input:
                    dep = _split(ref)[0]
                    if dep not in inside:
                        self.ensure(dep, env, within, stack)
            (self._cond if self.contexts[scope] == "cond" else self._while)(scope, env)
        env[("done", unit)] = True

    def _convert(self, nd, env):
        graph = state.graph
        before = len(graph.nodes) if graph is not None else 0
        result = self.special(nd)
        refs = [r for r in nd.input if not r.startswith("^")]
        cause = next((self.missing[_split(r)[0]] for r in refs if _split(r)[0] in self.missing), None)
        if result is None and (cause is not None or not self.supported(nd)):
            # Imported without a value, as a marker: the GraphDef may carry ops tinytf lacks (a Saver's SaveV2)
            # that the program never runs; whatever needs this node raises `cause` when it is asked for.
            self.missing[nd.name] = cause or f"tinytf cannot import the TensorFlow op {nd.op!r} (node {nd.name!r})"
            env[("done", nd.name)] = True
            self.created[nd.name] = []
            return
        if result is None:
            inputs = [env[_key(r)] for r in refs]
            if nd.op not in _REF_TAKERS:
                inputs = [x.read_value() if isinstance(x, Resource) and id(x) in self.refs else x for x in inputs]
            constants = {i: env[("const", _key(r))] for i, r in enumerate(refs) if ("const", _key(r)) in env}
            controls = [self.created.get(_split(r)[0], []) for r in nd.input if r.startswith("^")]
            if nd.op == "NoOp" and graph is not None and hasattr(graph, "collections"):
                result = self._group(nd, [n for made in controls for n in made])
            else:
                result = self.convert(nd, inputs, constants)
                if nd.op == "VariableV2":
                    self.refs.update(id(v) for v in result)
        made = graph.nodes[before:] if graph is not None else []
        self.created[nd.name] = made
        if graph is not None and made:
            stateful = [n for group in (self.created.get(_split(r)[0], []) for r in nd.input if r.startswith("^"))
                        for n in group if n.op.stateful]
            if stateful:
                made[0].control_inputs.extend(n for n in stateful if n not in made[0].control_inputs)
        for i, value in enumerate(result):
            env[f"{nd.name}:{i}"] = value
        if nd.op == "Const":
            env[("const", f"{nd.name}:0")] = array_of_proto(nd.attr["value"].tensor)
        env[("done", nd.name)] = True

    @staticmethod
    def _group(nd, nodes):
        from tinytf.compat.v1.ops import group

        group(*nodes, name=nd.name)  # named as the GraphDef names it (under import_graph_def's scope)
        return []

    # --- tf.cond from Switch / Merge --------------------------------------------------------------------------
    def _cond(self, scope, env):
        members = self.members(scope)
        pred_ref = self.by_name[f"{scope}/pred_id"].input[0]
        switches = [n for n in members if n.op == "Switch"
                    and (_split(n.input[1])[0] == f"{scope}/pred_id" or n.name == f"{scope}/Switch")]
        merges = [n for n in members if n.op == "Merge" and n.name.rpartition("/")[0] == scope]
        pred = self.value(pred_ref, env)
        outer = {s.name: self.value(s.input[0], env) for s in switches}

        def branch(taken):
            local = dict(env)
            for s in switches:
                local[f"{s.name}:{taken}"] = outer[s.name]
                local[("done", s.name)] = True
            local[("done", f"{scope}/pred_id")] = True
            return [self.value(m.input[taken], local, scope) for m in merges]

        results = tf.cond(pred, lambda: branch(1), lambda: branch(0))  # Merge's input 0 is the false branch
        results = list(results) if isinstance(results, (list, tuple)) else [results]
        chosen = tf.cast(pred, tf.int32)
        for merge, value in zip(merges, results):
            env[f"{merge.name}:0"], env[f"{merge.name}:1"] = value, chosen
            env[("done", merge.name)] = True

    # --- tf.while_loop from a frame ---------------------------------------------------------------------------
    def _while(self, scope, env):
        members = self.members(scope)
        by_input = {}
        for n in members:
            for r in n.input:
                by_input.setdefault(_split(r)[0], []).append(n)
        enters = [n for n in members if n.op == "Enter" and not n.attr["is_constant"].b
                  and n.name.rpartition("/")[0] == scope]
        constants = [n for n in members if n.op == "Enter" and n.attr["is_constant"].b]
        loop_cond = self.by_name[f"{scope}/LoopCond"]
        variables = []
        for enter in enters:
            merge = next(n for n in by_input.get(enter.name, []) if n.op == "Merge")
            switch = next(n for n in by_input.get(merge.name, []) if n.op == "Switch")
            nxt = self.by_name[_split(next(r for r in merge.input if _split(r)[0] != enter.name))[0]]
            exits = [n for n in by_input.get(switch.name, []) if n.op == "Exit"]
            variables.append((enter, merge, switch, nxt, exits))
        captured = {c.name: self.value(c.input[0], env) for c in constants}

        def frame_env(values):
            local = dict(env)
            for (enter, merge, switch, _, _), value in zip(variables, values):
                local[f"{merge.name}:0"] = local[f"{switch.name}:1"] = value
                for name in (merge.name, switch.name, enter.name):
                    local[("done", name)] = True
            for name, value in captured.items():
                local[f"{name}:0"] = value
                local[("done", name)] = True
            return local

        def cond(*values):
            out = self.value(loop_cond.input[0], frame_env(values), scope)
            return out if out.dtype is tf.bool else tf.not_equal(out, tf.zeros_like(out))

        def body(*values):
            local = frame_env(values)
            return [self.value(nxt.input[0], local, scope) for (_, _, _, nxt, _) in variables]

        initial = [self.value(enter.input[0], env) for (enter, *_rest) in variables]
        results = tf.while_loop(cond, body, initial)
        results = list(results) if isinstance(results, (list, tuple)) else [results]
        for (_, _, _, _, exits), value in zip(variables, results):
            for exit_node in exits:
                env[f"{exit_node.name}:0"] = value
                env[("done", exit_node.name)] = True
