"""Parameter sweeps: TOML specification, experiments, and the resumable runner."""
