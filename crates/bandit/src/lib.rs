//! Domains, objectives, data sets, environments, the Agent trait, baselines, regret and the seeded trial runner.
