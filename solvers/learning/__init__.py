"""Iterative learning solvers: fictitious play (over compiled games, the hold'em paper's,
and over a normal form), multiplicative weights (hedge) and CFR/CFR+; each supplies a step
that the one loop, :func:`pokerdyn.solvers.iterative.iterate`, drives (as it drives CFR+ over
ranges, :mod:`pokerdyn.solvers.ranges`)."""
