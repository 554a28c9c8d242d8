//! The parameters of USCA.

use serde::{Deserialize, Serialize};
use validation::{Valid, Validate};

use crate::approximating_set::ApproximatingSetSize;
use crate::certificate::DEFAULT_REFINEMENT_CONTEXTS;
use crate::error::UscaError;
use crate::regulariser::Regulariser;
use crate::sensitivity::SensitivityRule;

/// The parameters of Algorithm 1 (`T` is the caller's horizon, `eps` the prediction's budget).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UscaParams {
    /// The regulariser `tau > 0` of eqs. (2)-(5) (the fictitious noise variance).
    pub tau: f64,
    /// The reward bound `B > 0` of Assumption 2.7; rewards are clipped to `[-B, B]`.
    pub reward_bound: f64,
    /// `|Z|` ([`ApproximatingSetSize`]).
    pub approximating_set: ApproximatingSetSize,
    /// How `sup sigma^2` is bounded ([`SensitivityRule`]; default: the proven `sup_diag / tau`,
    /// `1 / tau` for the unit-variance kernels of the paper).
    pub sensitivity: SensitivityRule,
    /// Points drawn from the design to estimate the spectrum behind `gamma_T`
    /// ([`crate::gamma::DesignSpectrum`]).
    pub design_sample: usize,
    /// How `rho` in `K_ZZ + rho I` is set ([`Regulariser`]; default: the scaled
    /// `(|Z| / T) tau`). Absent from older parameter files, which meant the scaled form.
    #[serde(default)]
    pub regulariser: Regulariser,
}

impl Default for UscaParams {
    /// `tau = 1`, `B = 1.5` (a function with `max |f| = 1` and noise of sd 0.1 stays inside
    /// w.p. `1 - 6e-7` per reward), the paper's `|Z| = T K` up to 4096 points, the proven
    /// sensitivity, 512 design points.
    fn default() -> Self {
        Self {
            tau: 1.0,
            reward_bound: 1.5,
            approximating_set: ApproximatingSetSize::default(),
            sensitivity: SensitivityRule::Proven,
            design_sample: 512,
            regulariser: Regulariser::Scaled,
        }
    }
}

impl Validate for UscaParams {
    type Error = UscaError;

    /// Check `tau > 0`, `B > 0`, `design_sample >= 1` and the sensitivity rule's count
    /// (grid points or samples `>= 1`).
    fn check(&self) -> Result<(), UscaError> {
        validation::positive("tau", self.tau)?;
        validation::positive("reward bound B", self.reward_bound)?;
        validation::at_least_one("design sample size", self.design_sample)?;
        match self.sensitivity {
            SensitivityRule::Proven => {}
            SensitivityRule::Certified { points_per_dim, .. } => {
                validation::at_least_one("grid points per context dimension", points_per_dim)?;
            }
            SensitivityRule::QueryContext {
                points_per_dim,
                refinement_contexts,
            } => match points_per_dim {
                Some(n) => {
                    validation::at_least_one("grid points per context dimension", n)?;
                }
                None if refinement_contexts > 0 => {
                    return Err(crate::InputError::Unsatisfied {
                        what: "refinement contexts of the query-context rule",
                        value: refinement_contexts as f64,
                        requirement: "must be 0 with the proven S (there is no grid to refine)",
                    }
                    .into());
                }
                None => {}
            },
            SensitivityRule::PaperEstimate { samples } => {
                validation::at_least_one("sampled points of the paper's estimate", samples)?;
            }
        }
        Ok(())
    }
}

impl UscaParams {
    /// Profile "proven" (the [`Default`]): the sensitivity `2 B sup_diag / tau`
    /// ([`SensitivityRule::Proven`]). Guarantees `eps`-JDP for every `Z` and every data set.
    pub fn proven() -> Self {
        Self::default()
    }

    /// Profile "certified": `2 B` times a certified upper bound on `sup sigma^2` for the drawn
    /// `Z`, from `points_per_dim` grid points per context dimension refined with at most
    /// [`DEFAULT_REFINEMENT_CONTEXTS`] further centres
    /// ([`SensitivityRule::Certified`]): a tightening of [`UscaParams::proven`] (never above
    /// it). Guarantees `eps`-JDP (the bound depends on `Z` only).
    pub fn certified(points_per_dim: usize) -> Self {
        Self {
            sensitivity: SensitivityRule::Certified {
                points_per_dim,
                refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS,
            },
            ..Self::default()
        }
    }

    /// Profile "query-context": the sensitivity at the prediction's own context,
    /// `Delta(c) = 2 B S min(max_x sigma(x, c), S)` ([`SensitivityRule::QueryContext`]), with the
    /// proven `S` (`points_per_dim = None`) or the certified one: a tightening of the rule its
    /// `S` comes from (never above it). Guarantees `eps`-JDP (`Delta(c)` depends on `Z` and on
    /// `c_{T+1}`, which both neighbours share, only).
    pub fn query_context(points_per_dim: Option<usize>) -> Self {
        Self {
            sensitivity: SensitivityRule::QueryContext {
                points_per_dim,
                refinement_contexts: if points_per_dim.is_some() {
                    DEFAULT_REFINEMENT_CONTEXTS
                } else {
                    0
                },
            },
            ..Self::default()
        }
    }

    /// Profile "verbatim": the fixed smoother of eqs. (4)-(5) as printed, `rho = K tau` whatever
    /// `|Z|` ([`Regulariser::AsPrinted`]), with the proven `Delta = 2 B sup_diag / tau`.
    /// Guarantees `eps`-JDP (`Z~ >= tau I` still holds); `mu_T` is not calibrated when
    /// `|Z| < T K` (Lemma 6.2 needs `|Z| = T K`), and the mechanism is exactly the default's at
    /// `tau' = tau T K / |Z|` ([`crate::regulariser`]).
    pub fn verbatim() -> Self {
        Self {
            regulariser: Regulariser::AsPrinted,
            ..Self::default()
        }
    }

    /// Profile "as printed": the paper's sensitivity read literally, `2 B max sigma^2` over
    /// `samples` points of `W` drawn like `Z` ([`SensitivityRule::PaperEstimate`]).
    /// **Guarantees nothing**: an estimate of a supremum from below, so the mechanism's
    /// `eps` is not proven; offered only to compare with the paper.
    pub fn as_printed(samples: usize) -> Self {
        Self {
            sensitivity: SensitivityRule::PaperEstimate { samples },
            ..Self::default()
        }
    }

    /// Check `tau > 0`, `B > 0`, `design_sample >= 1` and the sensitivity rule's count
    /// (grid points or samples `>= 1`).
    ///
    /// Returns the checked value ([`Valid`]), what the constructors work from.
    pub fn validate(&self) -> Result<Valid<Self>, UscaError> {
        Valid::new(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profiles_differ_only_in_their_rule_and_say_what_they_guarantee() {
        let (p, c, a) = (
            UscaParams::proven(),
            UscaParams::certified(64),
            UscaParams::as_printed(1000),
        );
        assert_eq!(p, UscaParams::default());
        assert_eq!(
            c.sensitivity,
            SensitivityRule::Certified {
                points_per_dim: 64,
                refinement_contexts: DEFAULT_REFINEMENT_CONTEXTS
            }
        );
        assert_eq!(
            UscaParams {
                sensitivity: p.sensitivity,
                ..c
            },
            p
        );
        assert_eq!(
            UscaParams {
                sensitivity: p.sensitivity,
                ..a
            },
            p
        );
        assert!(p.sensitivity.is_bound() && c.sensitivity.is_bound());
        assert!(!a.sensitivity.is_bound());
        for q in [p, c, a] {
            assert_eq!(*q.validate().unwrap(), q);
        }
        let q = UscaParams::query_context(None);
        assert!(q.sensitivity.is_bound());
        assert_eq!(
            UscaParams {
                sensitivity: p.sensitivity,
                ..q
            },
            p
        );
        assert!(UscaParams::query_context(Some(0)).validate().is_err());
        assert!(UscaParams::query_context(Some(8)).validate().is_ok());
        let v = UscaParams::verbatim();
        assert_eq!(v.regulariser, Regulariser::AsPrinted);
        assert_eq!(
            UscaParams {
                regulariser: p.regulariser,
                ..v
            },
            p
        );
        // A parameter file without the field (written before it existed) reads as the scaled form.
        let mut json = serde_json::to_value(p).unwrap();
        json.as_object_mut().unwrap().remove("regulariser");
        let back: UscaParams = serde_json::from_value(json).unwrap();
        assert_eq!(back, p);
        assert!(UscaParams::certified(0).validate().is_err());
        assert!(UscaParams::as_printed(0).validate().is_err());
        // A refinement budget without a grid to refine is refused.
        let stray = UscaParams {
            sensitivity: SensitivityRule::QueryContext {
                points_per_dim: None,
                refinement_contexts: 1,
            },
            ..p
        };
        assert!(stray.validate().is_err());
        // A rule written before the refinement existed reads as the uniform grid.
        let old: SensitivityRule =
            serde_json::from_str(r#"{"certified": {"points_per_dim": 16}}"#).unwrap();
        assert_eq!(
            old,
            SensitivityRule::Certified {
                points_per_dim: 16,
                refinement_contexts: 0
            }
        );
    }
}
