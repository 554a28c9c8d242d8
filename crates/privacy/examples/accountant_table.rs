//! Print the DP-FTS-DE accountant table: paper preset, RDP (default orders, improved
//! conversion) and PLD (pessimistic) epsilons.

use privacy::accountant::rdp::{default_orders, paper_preset_epsilon, subsampled_gaussian_epsilon};
use privacy::accountant::{PldSettings, RdpConversion, subsampled_gaussian_pld_epsilon};

fn main() {
    let delta = 200f64.powf(-1.1);
    for (q, z) in [
        (0.15, 1.0),
        (0.25, 1.0),
        (0.5, 1.0),
        (0.25, 1.2),
        (0.25, 1.5),
    ] {
        let t = std::time::Instant::now();
        let paper = paper_preset_epsilon(q, z, 40, delta).unwrap();
        let rdp = subsampled_gaussian_epsilon(
            q,
            z,
            40,
            delta,
            &default_orders(),
            RdpConversion::Improved,
        )
        .unwrap();
        let pld = subsampled_gaussian_pld_epsilon(q, z, 40, delta, PldSettings::default()).unwrap();
        println!(
            "q={q} z={z}: paper {paper:.11} rdp {:.6} (order {}) pld {:.6} (remove {:.6}, add {:.6}, optimistic {:.6}) [{:.2}s]",
            rdp.0,
            rdp.1,
            pld.epsilon,
            pld.epsilon_remove,
            pld.epsilon_add,
            pld.epsilon_optimistic,
            t.elapsed().as_secs_f64()
        );
    }
}
