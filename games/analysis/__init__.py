"""Reviews of finished games: each decision graded by the game's strongest bot."""
