"""The refusals of the service layer, in one module every layer and every app may import.

A refusal changes nothing and carries the HTTP status an edge answers it with; views, sockets,
the API and the admin each turn one into their own kind of answer (a message, a frame, JSON).
Kept apart from `games.services` so that modules the services use (rate limits, chat) and the
edges can name the errors without importing the services, and in the site's package rather than
an app's so that `accounts` and `ratings` refuse with the same classes without importing `games`.
"""


class ServiceError(Exception):
    """A refused request; `status` is the HTTP status an edge should answer with."""

    status = 400


class BadRequest(ServiceError):
    """The request itself is malformed (API body, fields, query parameters)."""


class Unauthorized(ServiceError):
    """No valid credential (the API's bearer token)."""

    status = 401


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class StaleVersion(Conflict):
    """The move was made against an old board; `current_version` says what is current now."""

    def __init__(self, current_version: int):
        super().__init__(
            f"the board has changed (now at version {current_version}); reload and try again"
        )
        self.current_version = current_version


class IllegalMove(ServiceError):
    """The engine refused the action; the message names the rule."""


class TimeUp(Conflict):
    """The player's time for this move ran out (the server's deadline, not the browser's)."""


def sentence(refusal) -> str:
    """A refusal (a ServiceError, or the reason an access rule gives) as a page or a message
    says it on its own: capitalised, with its period. Refusals are worded as clauses, so that
    a message may also embed one ("You could not take a seat: %(reason)s.")."""
    return str(refusal).capitalize() + "."
