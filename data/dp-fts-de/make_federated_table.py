#!/usr/bin/env python3
"""Build federated_svm_digits_noisy.csv: a federated SVM hyper-parameter-tuning table.

What it is
----------
A stand-in for the landmine experiment of Dai et al. 2021 (DP-FTS-DE, NeurIPS 2021;
paper text: shared/papers/dai2021-dp-fts-de.txt, Sec. 5.2 and App. D), where each of 29
landmine fields tunes the RBF parameter gamma and the penalty C of an SVM on its own
data. Here each of N = 20 agents tunes sklearn's SVC(kernel="rbf") on its own shard of a
handwritten-digits data set; the objective of agent n at a grid point is its validation
accuracy (to be maximised).

Provenance
----------
* Data: scikit-learn's bundled `sklearn.datasets.load_digits` (the file
  sklearn/datasets/data/digits.csv.gz inside the scikit-learn wheel; nothing is downloaded):
  1797 images of 8 x 8 pixels (values 0..16), 10 classes. Original source, per sklearn's
  description: a copy of the test set (13 writers) of the UCI Machine Learning Repository's
  "Optical Recognition of Handwritten Digits" data, E. Alpaydin and C. Kaynak, July 1998
  (cite: C. Kaynak 1995, MSc thesis, Bogazici University; E. Alpaydin and C. Kaynak 1998,
  "Cascading Classifiers", Kybernetika).
* Built with Python 3.11.7, scikit-learn 1.9.1, numpy 2.4.6 (scipy 1.17.1), on one core.
* Seed: SEED = 2021 (numpy.random.default_rng), used for the shards and the noise.

Construction
------------
1. Pixels are scaled to [0, 1] (X / 16). A random permutation of the 1797 images is cut
   into N = 20 disjoint contiguous shards (np.array_split: 17 shards of 90 images, 3 of 89).
2. Within a shard the images are ordered by class (stable, shard order kept inside a class)
   and dealt alternately to training and validation: a stratified half / half split (the
   paper also gives each landmine field half its data for training and half for
   validation), n_train = 45, n_valid = 44 or 45.
3. Feature heterogeneity ("each site has its own sensor"): agent n has a noise level
   sigma_n, the values 0.3 * k / (N - 1), k = 0..N-1, assigned to agents by a random
   permutation; i.i.d. Gaussian noise N(0, sigma_n^2) is added to every pixel of every image
   of agent n (training and validation alike, values not clipped). The agent then
   standardises its features with the mean and standard deviation of its own training set
   (sklearn StandardScaler, the pre-processing the paper uses in its activity-recognition
   experiment); near-constant border pixels are thereby amplified to unit variance, more so
   for noisier agents. Per-agent sigma_n is printed by the script and listed in README.md.
4. Grid: 25 x 25, log10(gamma) = -3 + 4 * i_gamma / 24 (gamma in [1e-3, 10]) and
   log10(C) = -4 + 5 * i_c / 24 (C in [1e-4, 10]). C's range and gamma's upper bound are the
   paper's landmine ranges (C in [1e-4, 10], gamma in [0.01, 10]); gamma's lower bound is one
   decade below the paper's so that sklearn's default gamma="scale" (1 / 64 for standardised
   8 x 8 images) lies inside the range rather than on its edge (with the paper's 0.01 the
   best region sits on the gamma = 0.01 boundary). The grid is log-spaced, as in
   federated_svm_digits.csv (the authors' released landmine code appears to map [0, 1]
   linearly onto these ranges, which would put almost all points at C, gamma > 1).
5. At every grid point each agent fits SVC(kernel="rbf", gamma, C) (all other arguments at
   sklearn's defaults; libsvm is deterministic without probability=True) on its training
   half and records the accuracy on its validation half.

Columns: agent, i_gamma, i_c, x1, x2, n_train, n_valid, accuracy
(agents 0..19 in blocks; each block lists the same 625 grid points, i_gamma major, i_c minor;
x1 = i_gamma / 24, x2 = i_c / 24 with 6 decimals; accuracy with 6 decimals). 12 500 rows.
The log10 values are not written (to keep the file small); they follow exactly from
i_gamma, i_c (or x1, x2) by the formulas in step 4.

Regenerate (from the repository root):
    python3 data/dp-fts-de/make_federated_table.py
        [--out data/dp-fts-de/federated_svm_digits_noisy.csv]
        [--compare ../shared/data/federated_svm_digits.csv] [--no-gp]
It writes the CSV beside this script and prints the statistics below (about 1.5 minutes
on one core, of which ~20 s build the table and the rest fit the GP lengthscales).

Measured statistics (seed 2021; "gap" = agent's best grid value minus the expected best of
10 distinct grid points drawn uniformly at random, computed exactly over all subsets (a
10 000-draw Monte-Carlo check agrees to 0.004 per agent); "near-best" = within 0.05 of the
agent's best; the consensus point is the argmax of the mean-over-agents landscape; GP =
sklearn GaussianProcessRegressor, C * RBF(anisotropic) + White, fitted by maximum likelihood
to each agent's standardised landscape on [0, 1]^2, lengthscale quoted in grid spacings):

                                           this table            federated_svm_digits.csv
  agents x grid points                     20 x 625              29 x 625
  random-10 gap: mean (min, max)           0.261 (0.075, 0.355)  0.022 (0.005, 0.061)
  best accuracy per agent: min..max        0.578..0.911          0.516..0.935
  pairwise Pearson corr: mean (min, max)   0.843 (0.535, 0.996)  0.964 (0.806, 0.993)
  consensus point (i_gamma, i_c)           (4, 23)               (5, 22)
  regret at consensus: mean (max)          0.023 (0.067)         0.011 (0.065)
  agents for which consensus is optimal    7 / 20                20 / 29
  agents with regret at consensus <= 0.05  19 / 20               28 / 29
  grid distance consensus -> agent's best  mean 1.4 (max 4.0)    mean 2.0 (max 19.2)
  near-best fraction: mean (min, max)      0.038 (0.021, 0.058)  0.216 (0.051, 0.376)
  near-best set, 4-connected components    mean 1.4 (max 3)      mean 1.4 (max 8)
  GP lengthscale, median (gamma, C axis)   2.3, 2.2              3.1, 2.6
  GP noise / signal variance, median       0.014                 0.014
Same construction with other seeds (--seed 0 / 1 / 2): gap 0.271 / 0.264 / 0.273, mean
correlation 0.924 / 0.885 / 0.901, consensus optimal for 7 / 8 / 9 of 20 agents, near-best
fraction 0.038 / 0.037 / 0.035.
sha256 of the CSV (seed 2021): c45816e738a9f098ee414df353a1d6ea0a49126f007a8a088d07e1172f0d5c7c
"""
import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import sys
import time
import warnings
from math import comb
from pathlib import Path

import numpy as np
import scipy
import sklearn
from scipy import ndimage
from sklearn.datasets import load_digits
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

SEED = 2021
N_AGENTS = 20
G = 25  # grid points per axis
LOG10_GAMMA = (-3.0, 1.0)
LOG10_C = (-4.0, 1.0)
NOISE_MAX = 0.3  # largest per-agent pixel-noise s.d., in units of the [0, 1] pixel range
K_RANDOM = 10  # random-search budget for the gap statistic
TOL = 0.05  # "near-best" tolerance

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "federated_svm_digits_noisy.csv"
DEFAULT_COMPARE = HERE.parent.parent.parent / "shared" / "data" / "federated_svm_digits.csv"


def stratified_half(idx, y):
    """Order the shard by class (stable) and deal its images alternately to train / valid."""
    order = idx[np.argsort(y[idx], kind="stable")]
    return order[0::2], order[1::2]


def build(seed=SEED):
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    rng = np.random.default_rng(seed)
    shards = np.array_split(rng.permutation(len(y)), N_AGENTS)
    sigma = NOISE_MAX * rng.permutation(N_AGENTS) / (N_AGENTS - 1)
    lg = np.linspace(*LOG10_GAMMA, G)
    lc = np.linspace(*LOG10_C, G)
    acc = np.zeros((N_AGENTS, G * G))
    sizes = []
    for n, shard in enumerate(shards):
        tr, va = stratified_half(shard, y)
        Xn = X[shard] + sigma[n] * rng.standard_normal((len(shard), X.shape[1]))
        pos = {j: p for p, j in enumerate(shard)}
        xtr, xva = Xn[[pos[j] for j in tr]], Xn[[pos[j] for j in va]]
        sc = StandardScaler().fit(xtr)
        xtr, xva = sc.transform(xtr), sc.transform(xva)
        ytr, yva = y[tr], y[va]
        sizes.append((len(tr), len(va)))
        k = 0
        for g in lg:
            for c in lc:
                pred = SVC(kernel="rbf", gamma=10.0**g, C=10.0**c).fit(xtr, ytr).predict(xva)
                acc[n, k] = np.mean(pred == yva)
                k += 1
    return acc, sigma, sizes


def write_csv(path, acc, sizes):
    lines = ["agent,i_gamma,i_c,x1,x2,n_train,n_valid,accuracy"]
    for n in range(acc.shape[0]):
        ntr, nva = sizes[n]
        for i in range(G):
            for j in range(G):
                a = acc[n, i * G + j]
                lines.append(f"{n},{i},{j},{i / (G - 1):.6f},{j / (G - 1):.6f},{ntr},{nva},{a:.6f}")
    Path(path).write_text("\n".join(lines) + "\n")


def read_table(path):
    """Read a table in this layout (also the older one, which has extra columns)."""
    with open(path) as f:
        names = f.readline().strip().split(",")
    d = np.loadtxt(path, delimiter=",", skiprows=1)
    col = {c: d[:, k] for k, c in enumerate(names)}
    n_agents = int(col["agent"].max()) + 1
    return col["accuracy"].reshape(n_agents, -1)


def expected_best_of_k(v, k=K_RANDOM):
    """E[max of k distinct uniformly random entries of v], exact: the i-th smallest (0-based)
    is the maximum with probability C(i, k-1) / C(M, k)."""
    v = np.sort(np.asarray(v, dtype=float))
    m = len(v)
    w = np.array([comb(i, k - 1) for i in range(m)], dtype=float) / comb(m, k)
    return float(w @ v)


def gp_lengthscales(f):
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, WhiteKernel, ConstantKernel

    g = np.linspace(0.0, 1.0, G)
    Xg = np.array([(a, b) for a in g for b in g])
    z = (f - f.mean()) / (f.std() + 1e-12)
    kern = ConstantKernel(1.0, (1e-2, 1e2)) * RBF([0.1, 0.1], (1e-3, 10.0)) + WhiteKernel(0.1, (1e-6, 1.0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = GaussianProcessRegressor(kern, n_restarts_optimizer=0, random_state=0).fit(Xg, z)
    p = m.kernel_.get_params()
    ls = np.asarray(p["k1__k2__length_scale"]) * (G - 1)
    noise = p["k2__noise_level"] / (p["k1__k1__constant_value"] + 1e-300)
    return ls[0], ls[1], noise


def landscape_stats(F, gp=True):
    n, m = F.shape
    best = F.max(1)
    gaps = np.array([best[a] - expected_best_of_k(F[a]) for a in range(n)])
    cor = np.corrcoef(F)[np.triu_indices(n, 1)]
    cons = int(np.argmax(F.mean(0)))
    regret = best - F[:, cons]
    ci, cj = divmod(cons, G)
    dist = []
    for a in range(n):
        am = np.flatnonzero(F[a] >= best[a])
        dist.append(min(np.hypot(ci - p // G, cj - p % G) for p in am))
    near = F >= best[:, None] - TOL
    frac = near.mean(1)
    comps = np.array([ndimage.label(near[a].reshape(G, G))[1] for a in range(n)])
    s = dict(
        n_agents=n, n_points=m,
        gap=gaps, best=best, corr=cor, cons=(ci, cj), regret=regret,
        n_opt=int(np.sum(regret <= 1e-12)), n_within=int(np.sum(regret <= TOL + 1e-12)),
        dist=np.array(dist), frac=frac, comps=comps,
    )
    if gp:
        s["gp"] = np.array([gp_lengthscales(F[a]) for a in range(n)])
    return s


def report(name, s, per_agent=None):
    g, c, r, f = s["gap"], s["corr"], s["regret"], s["frac"]
    out = [
        f"== {name}: {s['n_agents']} agents x {s['n_points']} grid points",
        f"random-{K_RANDOM} gap (best - E[best of {K_RANDOM} random distinct points]): "
        f"mean {g.mean():.3f}, min {g.min():.3f}, max {g.max():.3f}",
        f"best accuracy per agent: min {s['best'].min():.3f}, max {s['best'].max():.3f}",
        f"pairwise Pearson correlation of landscapes: mean {c.mean():.3f}, min {c.min():.3f}, max {c.max():.3f}",
        f"consensus argmax (of the mean landscape) at (i_gamma, i_c) = {s['cons']}: "
        f"regret mean {r.mean():.3f}, max {r.max():.3f}; optimal for {s['n_opt']}/{s['n_agents']} agents, "
        f"regret <= {TOL} for {s['n_within']}/{s['n_agents']}; grid distance to agent's nearest best "
        f"mean {s['dist'].mean():.1f} cells (max {s['dist'].max():.1f})",
        f"fraction of grid within {TOL} of agent's best: mean {f.mean():.3f}, min {f.min():.3f}, max {f.max():.3f} "
        f"({f.mean() * s['n_points']:.0f} points on average); connected components (4-neighbour) "
        f"mean {s['comps'].mean():.1f}, max {s['comps'].max()}",
    ]
    if "gp" in s:
        gp = s["gp"]
        out.append(
            f"GP (C*RBF+White) lengthscale in grid spacings: gamma axis median {np.median(gp[:, 0]):.1f} "
            f"(range {gp[:, 0].min():.1f}..{gp[:, 0].max():.1f}), C axis median {np.median(gp[:, 1]):.1f} "
            f"(range {gp[:, 1].min():.1f}..{gp[:, 1].max():.1f}); noise/signal variance median {np.median(gp[:, 2]):.3f}"
        )
    print("\n".join(out))
    if per_agent is not None:
        sigma, sizes = per_agent
        print("agent sigma n_train n_valid  best   gap   near-best regret@consensus")
        for a in range(s["n_agents"]):
            print(f"{a:5d} {sigma[a]:.3f} {sizes[a][0]:7d} {sizes[a][1]:7d}  {s['best'][a]:.3f} "
                  f"{s['gap'][a]:.3f}  {s['frac'][a]:.3f}     {s['regret'][a]:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--compare", default=str(DEFAULT_COMPARE),
                    help="the older table to report the same statistics for (skipped if absent)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-gp", action="store_true", help="skip the (slow) GP lengthscale fits")
    a = ap.parse_args()
    print(f"python {sys.version.split()[0]}, scikit-learn {sklearn.__version__}, numpy {np.__version__}, "
          f"scipy {scipy.__version__}; seed {a.seed}")
    t0 = time.time()
    acc, sigma, sizes = build(a.seed)
    write_csv(a.out, acc, sizes)
    t1 = time.time()
    print(f"wrote {a.out} ({Path(a.out).stat().st_size} bytes) in {t1 - t0:.1f} s")
    F = read_table(a.out)  # statistics of the table as written (6 decimals)
    report(Path(a.out).name, landscape_stats(F, gp=not a.no_gp), per_agent=(sigma, sizes))
    if a.compare and Path(a.compare).is_file():
        report(Path(a.compare).name, landscape_stats(read_table(a.compare), gp=not a.no_gp))
    else:
        print(f"(comparison table {a.compare} not found; skipped)")
    print(f"total time {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
