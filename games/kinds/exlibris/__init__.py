"""Ex Libris as a game kind of the platform (issue 16): for now only its bots (`bots`), beside
the pure engine (`games/engine/exlibris/`). The kind is not registered yet."""
