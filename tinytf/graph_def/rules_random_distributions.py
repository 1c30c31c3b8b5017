"""GraphDef export of the gamma, Poisson, binomial, categorical and parameterized truncated normal random ops
(runtime/ops/random_gamma.py and its siblings): not written yet, each with the TF op it would become."""

UNEXPORTED_RANDOM_DISTRIBUTIONS = {
    name: f"not exported yet: TF's {tf_op} (its (seed, seed2) or key/counter inputs as the exported random ops "
          "have them); the rule and its run under TF (tools/check_tf_runs_exported_ops.py) are still to write"
    for name, tf_op in (("random_gamma", "RandomGamma"), ("stateless_random_gamma", "StatelessRandomGammaV3"),
                        ("random_gamma_grad", "RandomGammaGrad"), ("random_poisson", "RandomPoissonV2"),
                        ("stateless_random_poisson", "StatelessRandomPoisson"),
                        ("stateless_random_binomial", "StatelessRandomBinomial"), ("multinomial", "Multinomial"),
                        ("stateless_multinomial", "StatelessMultinomial"),
                        ("stateless_parameterized_truncated_normal", "StatelessParameterizedTruncatedNormal"))
}
