//! Zhou & Tan 2021, Local Differential Privacy for Bayesian Optimization (AAAI 2021).
