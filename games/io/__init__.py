"""Games and results in and out of files: Gambit's .efg format and atomic writes."""
