//! Print the maxima of the Mutny & Krause Michalewicz function for d = 1..=20 (the values in
//! docs/bandit.md): `cargo run -p bandit --example michalewicz_max`.

use bandit::objective::{Michalewicz, Objective};

fn main() {
    for d in 1..=20 {
        let m = Michalewicz::new(d)
            .expect("d >= 1")
            .maximum()
            .expect("known");
        println!(
            "d = {d:2}: max = {:.15}  argmax = {:?}",
            m.value,
            m.maximisers.row(0).to_vec()
        );
    }
}
