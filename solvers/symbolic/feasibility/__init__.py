"""Stage 1 of the exact wing (map: :mod:`solvers.symbolic`): exact signs of algebraic
numbers, arithmetic with one square root, the P axis split exactly, Fourier-Motzkin
feasibility, the float pre-filter and box proofs."""
