"""Repeated-play dynamics of adaptive players: ODE, difference-equation and agent-based
models (observation model, sliding-window estimators and the repeated-play kernel live in
``dynamics.observation``, ``dynamics.estimators`` and ``dynamics.repeated_play``)."""
