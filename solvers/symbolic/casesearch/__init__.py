"""Stage 4 of the exact wing (map: :mod:`solvers.symbolic`): the (a)/(b)/(c) case search
(:mod:`.case_enumeration`) on compiled gains, multilinear polynomials as bitmask tables
(:mod:`.compiled_gains`) walked depth first (:mod:`.walk`); behaviour supports of games with
more actions (:mod:`.behaviour_supports`)."""
