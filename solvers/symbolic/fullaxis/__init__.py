"""Whole-axis enumeration for games past the symbolic case search's leaf solver: complete
exact enumerations at rational pots (Groebner bases instead of the triangular solver), the
supports found solved again with the pot symbolic, and their exact P intervals."""
