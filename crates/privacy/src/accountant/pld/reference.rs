//! External reference values for the PLD accountant: Google's dp_accounting on the settings of
//! issue 15, and exact Gaussian epsilons. Read by `tests/pld_reference.rs`, the verify check
//! `privacy/accountant/pld-reference` and `cargo xtask bench privacy` (which reruns
//! dp_accounting when it is installed).

/// The twelve reference settings `(q, z, T, delta)` of issue 15 (the subsampled Gaussian), on
/// which the PLD accountant is compared with Google's dp_accounting (`tests/pld_reference.rs`,
/// `cargo xtask bench privacy`).
pub const REFERENCE_SETTINGS: [(f64, f64, u64, f64); 12] = [
    (0.001, 0.8, 10_000, 1e-5),
    (0.01, 1.0, 1_000, 1e-5),
    (0.01, 0.5, 100, 1e-8),
    (0.1, 2.0, 1_000, 1e-5),
    (0.1, 1.0, 100, 1e-8),
    (0.5, 5.0, 10_000, 1e-8),
    (0.5, 0.8, 10, 1e-5),
    (1.0, 2.0, 100, 1e-5),
    (1.0, 5.0, 1, 1e-8),
    (0.001, 0.5, 1_000, 1e-8),
    (0.1, 0.5, 1, 1e-5),
    (0.01, 2.0, 10_000, 1e-8),
];

/// dp_accounting 0.6.0's `(pessimistic, optimistic)` epsilons on
/// [`REFERENCE_SETTINGS`]:
/// `from_gaussian_mechanism(standard_deviation = z, sensitivity = 1, sampling_prob = q,
/// value_discretization_interval = 1e-4)`, `self_compose(T)`, `get_epsilon_for_delta(delta)`;
/// pessimistic = its default connect-the-dots PLD, optimistic = `pessimistic_estimate = False`
/// (privacy buckets). Run on 2026-11-24 (`cargo xtask bench privacy` reruns it when python3
/// has dp_accounting); the rounded values agree.
pub const DP_ACCOUNTING: [(f64, f64); 12] = [
    (0.782_524_835_226_493_3, 0.283_178_927_334_268_1),
    (1.828_243_645_591_767, 1.778_239_727_907_038_3),
    (10.733_416_015_060_005, 10.728_372_349_007_714),
    (8.279_293_381_667_024, 8.229_291_579_206_981),
    (9.942_737_266_202_128, 9.937_736_959_485_479),
    (106.145_100_730_497_57, 105.645_093_248_829_97),
    (14.696_031_016_072_734, 14.695_531_002_716_84),
    (33.103_732_508_582_01, 33.098_732_370_99),
    (1.021_170_646_588_432_7, 1.021_120_629_104_570_5),
    (6.062_462_610_968_113_5, 6.020_195_211_422_838),
    (6.575_539_809_723_427, 6.575_489_806_053_506),
    (2.942_644_580_357_565, 2.442_596_685_124_826),
];

/// `(z, T, delta, exact epsilon)` of `T` Gaussian mechanisms with noise multiplier `z` (the
/// settings S8 and S9): one Gaussian of `mu = sqrt(T)/z`, whose epsilon solves Balle & Wang's
/// `Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta` (mpmath, 40 digits, bisection to
/// 1e-35), rounded to 17 significant digits.
pub const EXACT_GAUSSIAN: [(f64, u64, f64, f64); 2] = [
    (2.0, 100, 1e-5, 33.103_732_335_922_465),
    (5.0, 1, 1e-8, 1.021_170_615_023_509_7),
];

/// dp_accounting 0.6.0's pessimistic epsilons on [`REFERENCE_SETTINGS`] under the replace-one
/// relation: `from_gaussian_mechanism(standard_deviation = z, sensitivity = 1, sampling_prob =
/// q, value_discretization_interval = 1e-4, neighboring_relation = REPLACE_ONE)`,
/// `self_compose(T)`, `get_epsilon_for_delta(delta)`: the connect-the-dots PLD of the pair
/// `((1-q) N(0) + q N(1), (1-q) N(0) + q N(-1))`, the pair our replace-one accountant uses.
/// Run on 2026-11-24.
pub const DP_ACCOUNTING_REPLACE_ONE: [f64; 12] = [
    1.150_434_601_238_637_5,
    2.843_445_811_703_821,
    10.966_571_830_080_92,
    17.685_143_610_045_213,
    13.878_891_278_472_96,
    308.822_677_754_149_94,
    20.785_729_797_237_79,
    91.817_289_816_652_48,
    2.131_016_694_687_379,
    6.121_074_249_484_295,
    6.680_900_111_419_75,
    5.800_604_334_638_514,
];

/// `(z, T, delta, exact epsilon)` of the replace-one Gaussian mechanism (`q = 1`, the settings
/// S8 and S9): the Gaussian at sensitivity 2, `mu = 2 sqrt(T)/z` (mpmath, 40 digits), as the
/// nearest doubles.
pub const EXACT_GAUSSIAN_REPLACE_ONE: [(f64, u64, f64, f64); 2] = [
    (2.0, 100, 1e-5, 91.817_289_624_663_74),
    (5.0, 1, 1e-8, 2.131_016_677_771_939),
];
