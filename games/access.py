"""Who may see, watch, join, play, chat at and read the record of a table: one rule, every door.

Pages, htmx partials, both sockets, the JSON API, replays, the record export, the chat and the
admin inspector all ask here, so no two doors can disagree. Nothing here reads a request: each
door says once who is asking, a `Visitor` (the user, possibly anonymous; their seat at this
game; whether they hold the table's invite; whether they are staff), and hands that one value
to every rule it asks and to what draws the game for them. Who holds the invite is the door's
to read (`holds_invite`: the web keeps the invite links a browser followed in its session under
`INVITED_SESSION_KEY`; API and JSON-socket clients send the code as `?invite=<code>`).

The rule, as a game site with private tables usually has it:

- A public table shows to everyone. A private one shows only to its players, to whoever holds
  its invite, and to staff (moderators follow reports to any table). One for the host's
  friends only shows only to the host's friends, its players and staff, an invite or not, before,
  during and after the game: nobody else watches it, reads its record or chat, or finds it in a
  list (`listed_to`).
- Its players always watch their own game. Anyone else watches a started game only where the
  table shows to them and takes spectators: the invite of a private table is a spectator's
  ticket only if spectators are allowed; otherwise only the players and staff watch (staff as
  spectators, with no hidden card; every hand only by `sees_other_seats`).
- Taking a free seat: any logged-in user at a public table, only invite holders at a private
  one (staff too: moderating a table is not playing at it); at a table for the host's friends
  only, only the host's friends (`friends.selectors`), invite or not. Whether the table is
  still open and has a free seat is the services' business (409), not access (403). Acting in
  a seat: its player, while their account is active (whether the game runs is, again, the
  services').
- Chat: players talk in the players' channel, watchers in the spectators'; everyone who reads
  one reads both once the game is over. Posting needs a logged-in account.
- A finished game's record (replay, export) is history: it reads wherever the table shows.
  Before the end only those who may watch it read it (as their seat sees it), and staff who may
  see other seats.
- A daily deal's game (`games.daily`) is a private table without spectators: only its player
  sees it while it runs. Once over, it also reads to everyone whose own game of the same deal
  is over (`dealt_alike`), never before: the deal's cards stay unseen until one has played them.
- A banned (deactivated) account counts as an anonymous visitor everywhere.

A service that locks the game re-reads the seat under its lock and builds its own `Visitor`
(a door's may be a moment old); the doors build theirs once per request, a socket once its
seats no longer move.
"""

import secrets
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext

from friends import selectors as friendships
from games.models import ChatMessage, Game, Seat

# The session key holding the ids of the games whose invite link a browser followed.
INVITED_SESSION_KEY = "invited_games"

_LOOK_UP = object()  # `seat` not given: read it from the database


def holds_invite(game: Game, *, session=None, code=None) -> bool:
    """Whether the visitor holds `game`'s invite: their web `session` followed its invite link,
    or they present its invite `code` (compared in constant time)."""
    if session is not None and game.pk in session.get(INVITED_SESSION_KEY, []):
        return True
    return isinstance(code, str) and secrets.compare_digest(
        code.encode(), game.invite_code.encode()
    )


def remember_invite(session, game: Game) -> None:
    """Note in a web session that its browser followed `game`'s invite link."""
    followed = set(session.get(INVITED_SESSION_KEY, [])) | {game.pk}
    session[INVITED_SESSION_KEY] = sorted(followed)


def _person(user):
    """`user` if it is a logged-in, active account; None for anonymous or banned visitors."""
    active = getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)
    return user if active else None


@dataclass(frozen=True)
class Visitor:
    """Who asks about one game, worked out once by the door and handed down (`Visitor.of`).

    A banned (deactivated) account is an anonymous visitor: no seat, not staff.
    """

    user: object  # as the door knows them: an account, or Django's AnonymousUser
    seat: int | None  # their seat at this game (None: they have none)
    invited: bool  # they hold the table's invite (`holds_invite`)
    staff: bool  # a moderator (who may follow reports to any table)
    # The game is a daily deal's, and their own game of that deal is over.
    dealt_alike: bool = False

    @classmethod
    def of(cls, game: Game, user, *, invited: bool = False, seat=_LOOK_UP) -> "Visitor":
        """`user` at `game`: their seat read from the database, unless the caller has read it
        (`seat`: a position, or None for no seat)."""
        person = _person(user)
        if person is None:
            return cls(user=user, seat=None, invited=invited, staff=False)
        if seat is _LOOK_UP:
            seat = game.seats.filter(user=person).values_list("position", flat=True).first()
        dealt_alike = (
            seat is None
            and game.daily_deal_id is not None
            and Game.objects.filter(
                daily_deal_id=game.daily_deal_id, host=person, status=Game.Status.FINISHED
            ).exists()
        )
        return cls(
            user=user, seat=seat, invited=invited, staff=person.is_staff, dealt_alike=dealt_alike
        )

    @property
    def person(self):
        """The visitor's account if they are logged in and active, else None."""
        return _person(self.user)


def _over(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABORTED)


# ------------------------------------------------------------------------------- seeing


def table_refusal(game: Game, visitor: Visitor) -> str | None:
    """Why the table does not show to the visitor at all (its waiting room, board, record,
    chat, its place in any list), or None: a private one without its invite, one for the host's
    friends only to anyone but them. Its players and staff always see it."""
    if visitor.staff or visitor.seat is not None:
        return None
    if game.daily_deal_id is not None:  # its invite link is no ticket to the deal's cards
        if visitor.dealt_alike:
            return None
        return gettext("a daily deal's games show to those who have played that deal")
    if game.private and not visitor.invited:
        return gettext("this table is private: use its invite link")
    return friends_only_refusal(game, visitor.person)


def listed_to(user, friend_ids: set[int] | None = None) -> Q:
    """The games every list (the lobby, the API's tables, histories, profiles) shows `user`:
    public ones, and of those for the host's friends only, the ones of `user`'s own or their
    friends' tables or where they sit (`friend_ids`: the user's friends, when the caller has
    read them). A private table shows in its own players' lists only, which ask for it."""
    person = _person(user)
    hosts = friendships.friend_ids(person) if friend_ids is None else set(friend_ids)
    shown = Q(friends_only=False)
    if person is not None:
        hosts.add(person.pk)
        shown |= Q(pk__in=Seat.objects.filter(user=person).values("game_id"))
    return Q(private=False) & (shown | Q(host_id__in=hosts))


def watch_refusal(game: Game, visitor: Visitor) -> str | None:
    """Why the visitor may not watch the game live (None: they may), in words for a refusal."""
    if visitor.seat is not None:
        return None
    if refusal := table_refusal(game, visitor):
        return refusal
    if not admits_spectator(game, visitor):
        return gettext("this table does not allow spectators")
    return None


def admits_spectator(game: Game, visitor: Visitor) -> bool:
    """Whether the table lets the visitor watch without a seat, privacy aside (`watch_refusal`
    asks that too): it takes spectators, or they are staff."""
    return game.spectators_allowed or visitor.staff


def may_watch(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may follow the game live: from their seat, or as a spectator."""
    return watch_refusal(game, visitor) is None


def see_refusal(game: Game, visitor: Visitor) -> str | None:
    """Why the table's page (and its partials and socket) is closed to the visitor, or None:
    before the start the waiting room shows wherever the table does, afterwards the board
    only to those who may watch."""
    if game.setup:
        return watch_refusal(game, visitor)
    return table_refusal(game, visitor)


def may_see(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may open the table's page: the waiting room, then the board."""
    return see_refusal(game, visitor) is None


# ------------------------------------------------------------------------------- acting


def join_refusal(game: Game, visitor: Visitor) -> str | None:
    """Why the visitor may not take a free seat, or None (whether the table is open and has a
    seat free is the services')."""
    if visitor.person is None:
        return gettext("log in to join a table")
    if game.daily_deal_id is not None:  # its invite link is no ticket to the deal's cards
        if visitor.dealt_alike:
            return None
        return gettext("a daily deal's games show to those who have played that deal")
    if game.private and not visitor.invited:
        return gettext("this table is private: use its invite link")
    return friends_only_refusal(game, visitor.person)


def may_join(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may take a free seat (the table open, a seat free: see services)."""
    return join_refusal(game, visitor) is None


def friends_only_refusal(game: Game, user) -> str | None:
    """Why `user` may not sit at a table for the host's friends only (None: the table is for
    everyone, or `user` is its host or a friend of the host). The services ask it on every
    seating, the invite link's and a rematch's included."""
    if not game.friends_only or getattr(user, "pk", None) == game.host_id:
        return None
    if friendships.are_friends(game.host, user):
        return None
    return gettext("this table is for the host's friends only")


def may_play(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor acts in a seat of this game: a seated, active account (whether the
    game runs is the services' 409, whose turn it is the engine's)."""
    return visitor.seat is not None


# --------------------------------------------------------------------------------- chat


def chat_channels(game: Game, visitor: Visitor) -> list[str]:
    """The chat channels the visitor reads, their own first (where they would post): players
    and watchers apart while the game runs, so watchers cannot pass players hints."""
    if not may_watch(game, visitor):
        return []
    players, spectators = ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS
    own, other = (players, spectators) if visitor.seat is not None else (spectators, players)
    return [own, other] if _over(game) else [own]


def may_chat(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may post (to the first of their `chat_channels`); a mute is checked
    by the chat service, under its lock."""
    return visitor.person is not None and bool(chat_channels(game, visitor))


# ------------------------------------------------------------------------------ records


def sees_other_seats(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may look through other seats' eyes at `game` (a seat's replay, every
    hand open, the admin's inspector): staff may, but a moderator seated at a running game
    plays it like everyone else, so only once it is over or when not seated at it."""
    if not visitor.staff:
        return False
    return game.status != Game.Status.ACTIVE or visitor.seat is None


def record_refusal(game: Game, visitor: Visitor) -> str | None:
    """Why the visitor may not read the game's record (replay, export), or None."""
    if game.status == Game.Status.FINISHED:
        return table_refusal(game, visitor)
    if sees_other_seats(game, visitor):
        return None
    return watch_refusal(game, visitor)


def may_read_record(game: Game, visitor: Visitor) -> bool:
    """Whether the visitor may read the game's history: its replay, its exported record."""
    return record_refusal(game, visitor) is None


@dataclass(frozen=True)
class ReplaySeats:
    """The perspectives a replay may take for one visitor."""

    own: int | None  # the visitor's own seat ("as I saw it"), if they played
    others: tuple[int, ...]  # other seats whose eyes they may borrow (staff)
    # Every replay may also show the board with hands open as far as the table learnt them.


def replay_seats(game: Game, visitor: Visitor) -> ReplaySeats | None:
    """What the visitor may replay `game` from (who may read it at all: `may_read_record`), or
    None when they may not replay it: before the end only staff replay a game."""
    staff = sees_other_seats(game, visitor)
    if game.status != Game.Status.FINISHED and not staff:
        return None
    own = visitor.seat
    others = tuple(seat for seat in range(game.num_players) if seat != own) if staff else ()
    return ReplaySeats(own=own, others=others)
