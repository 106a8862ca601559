"""Mercer Hold'em against its paper (Ullman, "Simulating fictitious play in simplified poker
variants"): the printed tables and our numbers derived from the rules."""
