"""The (a)/(b)/(c) case search of :mod:`solvers.symbolic.enumeration` on compiled gains:
multilinear polynomials as bitmask tables (:mod:`.gains`) walked depth first (:mod:`.walk`)."""
