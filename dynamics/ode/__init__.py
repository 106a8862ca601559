"""ODE models of adaptive players: right-hand sides generated from the payoff gradients,
integration, equilibria and stability, first integrals, periodic orbits, manifolds and basins."""
