"""Plot helpers of tournament endgames (push/fold charts)."""
