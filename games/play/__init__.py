"""Play: a running game's moves, turn worker, presence, sockets, live regions and rendering."""
