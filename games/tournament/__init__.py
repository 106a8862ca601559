"""Tournament endgames: the Independent Chip Model (:mod:`games.tournament.icm`) and the
N-player jam/fold game built straight into flat arrays (:mod:`games.tournament.jamfold`)."""
from pokerdyn.games.tournament.icm import icm, icm_batch, check_payouts

__all__ = ["check_payouts", "icm", "icm_batch"]
