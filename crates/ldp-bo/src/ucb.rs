//! What is specific to the UCB widths of Zhou & Tan's three algorithms. The rest of their
//! learner plumbing (the argmax and its tie rule, the fixed arm set, the message check, the
//! select/observe guard) is shared with every agent of the workspace: `bandit::policy`.

/// The width of the coming UCB choice, `bias + scale (beta - bias)`: the theorem's `beta` with its
/// concentration term (everything but the function-norm `bias`) multiplied by `scale`
/// (`docs/ldp-bo.md`, "Presets").
pub(crate) fn scaled_width(bias: f64, beta: f64, scale: f64) -> f64 {
    bias + scale * (beta - bias)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn scale_one_is_the_theorem_and_scale_leaves_the_bias() {
        assert_abs_diff_eq!(scaled_width(1.5, 7.0, 1.0), 7.0, epsilon = 1e-15);
        // B = 1.5, concentration 5.5, scaled by 0.01: 1.5 + 0.055.
        assert_abs_diff_eq!(scaled_width(1.5, 7.0, 0.01), 1.555, epsilon = 1e-15);
        assert_abs_diff_eq!(scaled_width(2.0, 2.0, 0.003), 2.0, epsilon = 1e-15);
    }
}
