"""What the game services announce, so other apps (ratings) follow games without games
importing them: the dependency points from the listener to games, never back.
"""

from django.dispatch import Signal

# Sent with `game=` by `services.record_places`, inside the transaction that finishes the game
# (its row locked, its places recorded), exactly once per game: a receiver's writes commit with
# the finish or not at all, and an exception a receiver raises undoes the finish.
game_finished = Signal()

# Sent with `seat=` when a person's seat of a running game passes to the stand-in bot for the
# rest of the game (they left it, or ran out of time too often), inside that transaction.
seat_abandoned = Signal()
