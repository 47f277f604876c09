"""Chat: a table's two channels (players, spectators) and reports of messages."""
