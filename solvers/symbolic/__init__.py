"""The exact-equilibrium wing: every equilibrium of a game, exactly (sympy), at one pot or
piecewise along the pot axis ``P``.  One entry point, :func:`.entry.solve_equilibria`
(``pokerdyn equilibria``, ``pokerdyn.equilibria``), chooses the algorithm
(:func:`.entry.choose_method`, ``method="auto"`` records which ran and why) and returns the
record.  The work is cut by pipeline stage; each stage folder imports only earlier stages
(tests/test_layout.py checks the order below), and nothing in a stage imports ``entry``.

1. ``feasibility`` -- exact signs and arithmetic the rest decides with: real algebraic
   numbers (``algebraic.sign``), ``QQ(P)(sqrt R)`` (``radical``), the P axis split into
   exact intervals and Fourier-Motzkin feasibility of constraints (``pot_split``), the
   floating-point pre-filter (``float_filter``), box proofs by interval arithmetic
   (``box_proofs.empty``).
2. ``model`` -- the game as equations: symbolic payoffs (``payoffs.symbolic_payoffs``), the
   gains and the :class:`Family` record (``conditions.conditions``, ``Family``,
   ``pot_symbol``), exact NashConv (``nash_conv.exact_nash_conv``; in Fractions and
   quadratic numbers: ``nash_conv_fraction``), iterated dominance (``dominance``;
   at any size on sparse gains: ``sparse_gains.undominated``), exact pot input
   (``pot_values.exact_pot``, ``pot_range``).
3. ``algebra`` -- one support solved (one pot, or ``P`` symbolic): the triangular solver
   (``triangular.solve_triangular``), independent blocks (``support_solve.solve_support``),
   lex Groebner bases (``groebner.solve_block``), positive-dimensional components
   (``positive_dimensional``), curves and surfaces of equilibria (``curves.support_curves``,
   ``surfaces``), algebraic points (``algebraic_points.real_points``), exceptional pots of a
   block (``exceptional_pots``).
4. ``casesearch`` -- the (a)/(b)/(c) case enumeration (``case_enumeration.enumerate_families``)
   on compiled gains (``compiled_gains``), axis cells (``cells``), interval boxes
   (``boxes``), the depth-first walk (``walk.case_leaves``); behaviour supports of games
   with more than two actions (``behaviour_supports.support_leaves``).
5. ``families`` -- what is done with a list of families: exact reduction to the smallest
   equivalent list (``reduction.reduce_families``), numerical geometry (``geometry``), one
   record form (``family_view``: strategy by information set, payoffs in free parameters).
6. ``axis`` -- the P axis: families piecewise in P (``piecewise.equilibrium_pieces``,
   ``solutions_at``), critical values (``critical_values``), every equilibrium at one
   rational pot (``at_pot.at_pot``), the whole-axis sweep (``sweep.sweep``), k-action games
   (``support_families.solutions``), maxmin choice (``maxmin``), JSON records
   (``family_records``), forked workers (``forked_map``).
7. ``certificates`` -- proofs about a whole-axis result: leaves empty on a range
   (``leaf_boxes``), the completeness proof (``completeness.certify_complete``), the
   certified whole-axis run (``axis_run.axis_record``).
8. ``learned`` -- games past the case search: supports proposed by seeded CFR+/FP runs
   (``propose``), solved and certified at one pot (``equilibrium_set.equilibrium_set``) or
   along a pot range (``pot_axis``, ``pot_sweep.pot_sweep``), learned limits against a
   record (``limits``).
"""
