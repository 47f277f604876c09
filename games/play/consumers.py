"""`ws/games/<id>/`: a live game board (the lobby's socket is `games.tables.consumers`).

The channel layer only carries hints (`games.play.broadcast`); on each hint the consumer re-reads
the game (once per hint for all a worker's sockets on it: `read_for`) and sends its own user's
board, built from `view(state, seat)` like every other page,
so a socket can never receive another seat's cards (what several readers share, rendered once
per worker, is drawn from the spectator's view: `rendering.live_board`). Moves come back in
through `services.submit_action`, the same door as the HTML views and the API.

Refusals before any data is sent are a close with an application code, after the handshake so
that clients (and bots) can read it: 4401 not authenticated, 4403 not allowed to watch, 4404 no
such game, 4400 too many malformed frames, 4429 too many messages (biblios_site/overload.py, which
also drops a client's messages past its rate over all its sockets). A socket also closes 4401
when the API token or the login session it was opened with ends (revoked, logged out,
expired), so it acts no longer than its credential. A client that goes away mid-send is no
error: every consumer is a `biblios_site.sockets.Consumer`, which then drops what it would
still send.
"""

import json
import time
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from accounts import credentials
from accounts.middleware import in_reader_language
from accounts.models import ApiToken
from biblios_site import errors, ratelimit
from biblios_site.inputs import json_object
from biblios_site.overload import admit_message
from biblios_site.recent import Recent
from biblios_site.sockets import (
    CLOSE_BAD_FRAMES,
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHENTICATED,
    Consumer,
)
from games import access
from games.models import Game
from games.play import broadcast, live_regions, presence, rendering, selectors, services
from notifications import services as notice_services

MAX_FRAME_BYTES = 8 * 1024


MAX_BAD_FRAMES = 20

# A socket this many versions behind its game (it could not keep up: a slow client, a busy
# worker) is sent the whole board rather than what changed since its last push: over several
# moves most regions changed anyway, and its page is redrawn from a clean frame.
BEHIND = 3


STALE_AFTER_S = presence.STALE_AFTER.total_seconds()


# htmx's ws extension adds the request headers to every frame it sends.
HTMX_HEADERS = "HEADERS"


@dataclass
class HintRead:
    """A game's row as read for a socket's push (None: no such game), when the read began and
    ended (time.monotonic), and its seats, read when first asked."""

    game: Game | None
    began: float
    ended: float
    _seats: list | None = field(default=None, repr=False)

    def seats(self) -> list:
        if self._seats is None:
            self._seats = list(self.game.seats.select_related("user"))
        return self._seats


# A move's hint reaches every socket on its game, and each read the game and its seats again
# (most of a push's reads). The first of a worker's sockets to take a hint reads them; the others
# reuse that read, kept here by game and hint (sockets only read what they are handed).
HINT_READS = Recent(256)


def read_for(game_id: int, hint: str | None, *, not_before: float) -> HintRead:
    """The game as read for `hint`: the read another socket of this worker made for it if that
    read began at `not_before` or later (the end of the read this socket last drew from, so a
    socket never draws an older game than it did), else a read of its own. Without a hint (a
    socket's first board, a resync, presence) always its own."""
    if hint is not None:
        read = HINT_READS.get((game_id, hint))
        if read is not None and read.began >= not_before:
            return read
    began = time.monotonic()
    game = Game.objects.filter(pk=game_id).first()
    read = HintRead(game, began, time.monotonic())
    if hint is not None:
        HINT_READS.put((game_id, hint), read)
    return read


class BadFrame(Exception):
    """An incoming frame that is not a well-formed request; nothing was attempted."""


class CredentialsEnded(Exception):
    """The socket's token or session no longer stands for its user; nothing was attempted."""


class GameConsumer(Consumer):
    """`ws/games/<id>/`: HTML out-of-band partials for the page, or JSON with `?format=json`."""

    seen_until = float("-inf")  # when the read of the game it last drew from ended

    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.as_json = query.get("format", [""])[-1] == "json"
        self.invite_code = query.get("invite", [""])[-1]  # a JSON client's `?invite=<code>`
        # The page's own origin (biblios_site.origin admits sockets from this site only): the
        # waiting room's invite link stays a full URL in live redraws.
        self.origin = dict(self.scope.get("headers", [])).get(b"origin", b"").decode("latin-1")
        self.invited = False  # whether this socket holds the table's invite (read once)
        self.visitor = None  # who this user is at the game (`_visitor`)
        self.seats_final = False  # seats no longer move: the game has started (or closed)
        self.connected = None  # the connected seats last read, and when (time.monotonic)
        self.connected_at = 0.0
        self.user = None
        self.token_id = None  # the API token this socket was opened with, if any
        self.session_key = None  # else the login session it was opened with
        self.group = broadcast.game_group(self.game_id)
        self.sent = None  # (version, status) of the last board sent
        self.regions = live_regions.SentRegions()  # and what its regions held
        self.bad_frames = 0

        await self.accept()
        self.user = await self._authenticate(query)
        if self.user is None:
            await self.close(CLOSE_UNAUTHENTICATED)
            return
        refusal = await database_sync_to_async(self._check_access)()
        if refusal is not None:
            self.user = None
            await self.close(refusal)
            return
        # Join before reading the board, so no move can slip between the read and the join.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.channel_layer.group_add(broadcast.user_group(self.user.pk), self.channel_name)
        await self.channel_layer.group_add(self._credential_group(), self.channel_name)
        await database_sync_to_async(presence.connected)(self.game_id, self.user, self.channel_name)
        presence.heartbeats.add(self.channel_name, self.game_id, self.user.pk)
        await self._send_board(force=True)
        await self._announce_presence()

    async def disconnect(self, code):
        if self.user is None:
            return
        presence.heartbeats.discard(self.channel_name)
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.channel_layer.group_discard(
            broadcast.user_group(self.user.pk), self.channel_name
        )
        await self.channel_layer.group_discard(self._credential_group(), self.channel_name)
        await database_sync_to_async(presence.disconnected)(self.channel_name)
        await self._announce_presence()

    # --------------------------------------------------------------------- hints in

    async def game_changed(self, event):
        """A move or table change was committed: send this user's board if it is news."""
        if self.user is None:  # closed (banned, logged out) with hints still queued
            return
        if self.sent is not None and event.get("version", 0) < self.sent[0]:
            return
        await self._send_board(force=bool(event.get("seats_changed")), hint=event.get("hint"))

    async def game_presence(self, event):
        """A player opened or closed the page: redraw who is connected."""
        if self.user is not None and event.get("sender") != self.channel_name:
            await self._send_board(force=True, presence_only=True)

    async def chat_changed(self, event):
        """A chat message was posted or hidden: resend the chat if this user reads that channel."""
        if self.as_json or self.user is None:
            return
        html = await database_sync_to_async(self._render_chat)(event.get("channel"))
        if html:
            await self.send(text_data=html)

    @in_reader_language
    def _render_chat(self, channel: str) -> str:
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return ""
        context = rendering.chat_context(game, self._visitor(game))
        if channel not in context["channels"]:
            return ""
        return render_to_string("games/chat.html#panel", {**context, "oob": True})

    async def user_banned(self, event):
        """A moderator banned this user: the socket closes as if access were refused."""
        await self._stop(CLOSE_FORBIDDEN)

    async def credentials_ended(self, event):
        """The token or session this socket was opened with was revoked or logged out."""
        await self._stop(CLOSE_UNAUTHENTICATED)

    # -------------------------------------------------------------------- frames in

    async def receive(self, text_data=None, bytes_data=None):
        if self.user is None or not await admit_message(self, self.user):
            return
        try:
            frame = self._parse(text_data, bytes_data)
        except BadFrame as bad:
            self.bad_frames += 1
            await self._send_error(str(bad), 400)
            if self.bad_frames >= MAX_BAD_FRAMES:
                await self.close(CLOSE_BAD_FRAMES)
            return
        if "action" not in frame:
            try:  # a whole board per resync: limited per socket
                await database_sync_to_async(ratelimit.hit)("resync", self.channel_name)
            except ratelimit.RateLimited as refusal:
                await self._send_error(str(refusal), refusal.status, refusal.retry_after)
                return
            if await database_sync_to_async(self._credentials_hold)():
                await self._send_board(force=True)
            else:
                await self._stop(CLOSE_UNAUTHENTICATED)
            return
        try:
            await database_sync_to_async(self._submit)(frame["action"], frame["version"])
        except CredentialsEnded:
            await self._stop(CLOSE_UNAUTHENTICATED)
        except errors.StaleVersion as refusal:
            # Refused, with the current board (in HTML the board's message says why).
            if self.as_json:
                await self._send_error(str(refusal), refusal.status)
            await self._send_board(force=True, message=str(refusal))
        except errors.ServiceError as refusal:
            retry_after = getattr(refusal, "retry_after", None)  # a RateLimited's
            await self._send_error(str(refusal), refusal.status, retry_after)
        # On success the broadcast hint brings the new board, to this socket as to all others.

    def _submit(self, action, version) -> None:
        """One move (the service counts it against the user's action rate: a 429 frame)."""
        if not self._credentials_hold():
            raise CredentialsEnded
        services.submit_action(self.game_id, self.user, action, version=version)

    def _parse(self, text_data, bytes_data) -> dict:
        """A resync request `{"type": "resync"}` or a move `{"action": {...}, "version": n}`."""
        if text_data is None:
            raise BadFrame("binary frames are not accepted; send JSON text")
        try:
            frame = json_object(text_data, max_bytes=MAX_FRAME_BYTES)
        except errors.BadRequest as refusal:
            raise BadFrame(str(refusal)) from None
        frame.pop(HTMX_HEADERS, None)
        game_id = frame.pop("game_id", self.game_id)
        if game_id != self.game_id:
            raise BadFrame(f"this socket is for game {self.game_id}")
        if frame == {"type": "resync"}:
            return frame
        if set(frame) != {"action", "version"}:
            raise BadFrame('expected {"action": {...}, "version": <number>} or {"type": "resync"}')
        if not isinstance(frame["action"], dict):
            raise BadFrame('"action" must be a JSON object')
        if isinstance(frame["version"], bool) or not isinstance(frame["version"], int):
            raise BadFrame('"version" must be a whole number')
        return frame

    # ------------------------------------------------------------------- frames out

    async def _send_board(
        self, *, force: bool, presence_only=False, message="", hint: str | None = None
    ) -> None:
        try:
            board = await database_sync_to_async(self._render_board)(
                force, presence_only, message, hint
            )
        except errors.NotFound:
            await self._stop(CLOSE_NOT_FOUND)
            return
        except errors.NotAllowed:
            await self._stop(CLOSE_FORBIDDEN)
            return
        if board is not None:
            key, text = board
            if not presence_only:
                self.sent = key
            await self.send(text_data=text)

    @in_reader_language
    def _render_board(self, force: bool, presence_only: bool, message: str, hint=None):
        """((version, status), frame) of this user's board, or None if there is no news."""
        read = read_for(self.game_id, hint, not_before=self.seen_until)
        self.seen_until = read.ended
        game = read.game
        if game is None:
            raise errors.NotFound(f"there is no game {self.game_id}")
        key = (game.version, game.status)
        # Seats come and go at version 0 while a table is open, so only then is a hint
        # at the same version still news.
        if not force and key == self.sent and game.status != Game.Status.OPEN:
            return None
        if not self._may_see(game):
            raise errors.NotAllowed("you may not watch this table")
        if presence_only and (not game.setup or self.sent is None or self.sent[1] != game.status):
            # The page shows a waiting room (which does not show who is connected), or a frame
            # of another status: a players region alone would find no place on it. The push of
            # the game's new status, due next, shows who is connected, read afresh.
            self.connected = None
            return None
        news = game.turn_based or self.sent is None or self.sent[1] != game.status
        if self._seated() and not presence_only and news:
            # A live table's turns are no news to its notices: only its start and end are.
            notice_services.mark_game_seen(self.user, game)
        connected = self._connected_seats(game, fresh=force)
        if self.as_json:
            frame = {
                "version": game.version,
                "status": game.status,
                "view": selectors.seat_board(game, self.visitor.seat) if game.setup else None,
                "connected": sorted(connected),
            }
            return key, json.dumps(frame)
        if presence_only:
            players = rendering.players_html(game, self.visitor, connected=connected)
            self.regions.remember(players)
            return key, players
        # The whole board when the page may not hold this one's frame (first push, resync, new
        # seats) or its frame says another status (the waiting room, "Leave game" shown), or
        # when this socket fell behind (its queued hints are skipped for the newest board).
        whole = (
            force
            or self.sent is None
            or self.sent[1] != game.status
            or game.version - self.sent[0] > BEHIND
        )
        parts = rendering.live_board(
            game,
            self.visitor,
            connected=connected,
            message=message,
            origin=self.origin,
            frame=whole,
            sent=self.regions,
            seats=read.seats() if game.setup else None,
        )
        return key, self.regions.news("".join(parts), whole=whole)

    async def _send_error(self, message: str, status: int, retry_after: int | None = None) -> None:
        """Tell this client why its frame changed nothing (and, if limited, when to retry)."""
        frame = await database_sync_to_async(self._error_frame)(message, status, retry_after)
        await self.send(text_data=frame)

    @in_reader_language
    def _error_frame(self, message: str, status: int, retry_after: int | None) -> str:
        """JSON `{"error", "status", "version"}` (plus `retry_after` seconds on a 429), or in
        HTML the board's message region (the waiting room, which is small, comes whole with its
        message)."""
        game = Game.objects.filter(pk=self.game_id).first()
        version = game.version if game is not None else None
        if self.as_json:
            frame = {"error": message, "status": status, "version": version}
            if retry_after is not None:
                frame["retry_after"] = retry_after
            return json.dumps(frame)
        if game is not None and not game.setup and self._may_see(game):
            return rendering.board_html(
                game, self.visitor, oob=True, message=message, origin=self.origin
            )
        return render_to_string(
            "games/board_parts.html#message",
            {"view": {"version": version}, "message": message, "oob": True},
        ).strip()

    async def _stop(self, code: int) -> None:
        """The game went away or shut this user out: leave the group and close."""
        await self.disconnect(code)
        self.user = None
        await self.close(code)

    # ------------------------------------------------------------ who, and presence

    async def _authenticate(self, query):
        """The session user; a JSON client may instead present an API token. Notes which
        credential it was, to close with it and to re-check it (`_credentials_hold`)."""
        if self.as_json:
            raw = _bearer_token(self.scope.get("headers", [])) or query.get("token", [""])[-1]
            if raw:
                token = await database_sync_to_async(ApiToken.find)(raw)
                if token is None:
                    return None
                self.token_id = token.pk
                return token.user
        user = self.scope.get("user")
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if user is None or not user.is_authenticated or not session_key:
            return None
        self.session_key = session_key
        return user

    def _credential_group(self) -> str:
        if self.token_id is not None:
            return credentials.token_group(self.token_id)
        return credentials.session_group(self.session_key)

    def _credentials_hold(self) -> bool:
        """Whether the token or session is still valid and still this active user's: checked
        on each move and resync (one or two indexed reads), never on pushes or presence."""
        if self.token_id is not None:
            return ApiToken.still_valid(self.token_id)
        return credentials.session_user_id(self.session_key) == self.user.pk

    def _check_access(self) -> int | None:
        """A close code if this user may not see the table, else None; reads whether this
        socket holds the table's invite: its browser followed the invite link (the views note
        it in its session), or a JSON client sent its code as `?invite=`."""
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return CLOSE_NOT_FOUND
        session = self.scope.get("session")
        self.invited = access.holds_invite(game, session=session, code=self.invite_code)
        return None if self._may_see(game) else CLOSE_FORBIDDEN

    def _may_see(self, game: Game) -> bool:
        """Whether this user may follow the table, by the same rule as its page
        (`games.access.may_see`): the waiting room, then the board."""
        return access.may_see(game, self._visitor(game))

    def _visitor(self, game: Game) -> access.Visitor:
        """Who this user is at `game`, worked out once: seats are compacted at the start and
        never move afterwards (a bot taking over changes who plays a seat, not whose it is),
        so only while the table is open is their seat read again (they join, leave, are
        removed). Their seat also decides whether presence is announced."""
        if self.visitor is None or not self.seats_final:
            self.visitor = access.Visitor.of(game, self.user, invited=self.invited)
            self.seats_final = game.status != Game.Status.OPEN
        return self.visitor

    def _seated(self) -> bool:
        """Whether this user plays a seat here (only players' presence is announced)."""
        return self.visitor is not None and self.visitor.seat is not None

    def _connected_seats(self, game: Game, *, fresh: bool) -> set[int]:
        """Who is connected, read again only when asked (a presence hint, a forced board) or
        once as old as a stale row (a dead worker's sockets expire without a hint): reading
        it on every move was ~13% of a loaded worker."""
        now = time.monotonic()
        if fresh or self.connected is None or now - self.connected_at > STALE_AFTER_S:
            self.connected, self.connected_at = presence.connected_seats(game), now
        return self.connected

    async def _announce_presence(self):
        """Tell the other sockets on this game to redraw the players (only players show)."""
        if self._seated():
            await self.channel_layer.group_send(
                self.group, {"type": "game.presence", "sender": self.channel_name}
            )


def _bearer_token(headers) -> str:
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer":
                return token.strip()
    return ""
