"""Learning: a kind's guided first game, its scoring demo, and the rules pages."""
