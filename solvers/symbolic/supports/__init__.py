"""Equilibrium sets of games with more parameters than the case search can walk
(:mod:`solvers.symbolic.enumeration` stops at 16): supports proposed by seeded learning runs,
solved and certified exactly.

* :mod:`.gains` -- counterfactual gains in a sparse polynomial ring at a fixed pot, their
  sign over a parameter box by branch and bound, and iterated dominance at any size;
* :mod:`.propose` -- seeded CFR+ and fictitious-play runs from random starting profiles and
  the (a)/(b)/(c) case string each limit suggests;
* :mod:`.solve` -- one support solved exactly (independent blocks of the indifference
  equations solved apart), its constraints, an exact witness and certificate;
* :mod:`.equilibrium_set` -- the pipeline: dominance, proposals, families, distances of the
  learned limits to the families; supports too slow to solve go to
  :mod:`.curves` (curves of equilibria algebraic in one unknown);
* :mod:`.pot_axis` -- a support solved with the pot ``P`` symbolic, the exact P intervals
  of each family and its certificate at a rational pot of each;
* :mod:`.pot_sweep` -- the pipeline along a pot range: sample pots, P-symbolic families,
  pieces of the P axis.
"""
