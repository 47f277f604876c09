"""History: a player's games, the replay of any step of a game, and its record."""
