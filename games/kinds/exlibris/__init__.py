"""Ex Libris as a game kind of the platform (`kind.py`, registered in the settings): its bots,
presenter, names, board templates and lesson, beside the pure engine (`games/engine/exlibris/`)."""
