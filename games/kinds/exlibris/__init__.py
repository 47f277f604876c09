"""Ex Libris as a game kind of the platform (`kind.py`, registered in the settings): its pure
engine (`engine/`), bots, presenter, forms, names, board templates, styles and lesson."""
