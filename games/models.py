"""Tables, seats and the append-only move log.

The truth of a game is its setup plus its moves; `Game.state` is a cache of the engine state
after the last move (replayed and checked against it by `moderation.check_integrity`).
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy

from games.kinds import registry

# A table's time per move: live (30 s, 1 min, 3 min) or turn-based, for games played a move a
# day or so (12 h, 24 h, 72 h); None (no timer) for friendly games.
LIVE_TURN_SECONDS = (30, 60, 180)
TURN_BASED_SECONDS = (12 * 3600, 24 * 3600, 72 * 3600)
TURN_SECONDS = LIVE_TURN_SECONDS + TURN_BASED_SECONDS


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def new_seed() -> int:
    return secrets.randbits(62)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("game status", "Waiting for players")
        ACTIVE = "active", pgettext_lazy("game status", "In progress")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")
        ABORTED = "aborted", pgettext_lazy("game status", "Aborted")

    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    # Which game (a slug of games.kinds.registry) and which way to play it; checked against the
    # registry by the services, which alone create games.
    kind = models.CharField(max_length=24)
    variant = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    private = models.BooleanField(default=False, help_text="Only reachable by invite link.")
    spectators_allowed = models.BooleanField(default=True)
    friends_only = models.BooleanField(
        default=False, help_text="Only the host's friends may join (and see it in the lobby)."
    )
    invite_code = models.CharField(max_length=24, unique=True, default=new_invite_code)
    seed = models.BigIntegerField(default=new_seed)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    version = models.PositiveIntegerField(default=0)
    setup = models.JSONField(null=True, blank=True, help_text="engine.new_game arguments")
    state = models.TextField(blank=True, help_text="Cached engine state (the engine's dumps).")
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rated = models.BooleanField(
        default=False, help_text="Counts for ratings (by default: tables without bots)."
    )
    turn_seconds = models.PositiveIntegerField(
        null=True, blank=True, help_text="Time for each turn; empty for untimed (friendly) games."
    )
    # The one column the turn worker polls: when a bot seat must move, or when the timed
    # human to act runs out of time. Null when nothing is due (untimed human turn, game over).
    due_at = models.DateTimeField(null=True, blank=True)
    # The day's deal this game plays (`games.daily`), its host alone against the site's bots.
    daily_deal = models.ForeignKey(
        "DailyDeal", null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(fields=["-created_at"], name="game_newest_first"),
            models.Index(
                fields=["due_at"], name="game_due_at", condition=models.Q(due_at__isnull=False)
            ),
        ]
        constraints = [
            # Each kind's own range (`kind.player_counts`) is the services' check.
            models.CheckConstraint(
                condition=models.Q(num_players__gte=1), name="game_num_players_at_least_1"
            ),
            # A day's deal is played once by each player, whichever door or tab asks.
            models.UniqueConstraint(
                fields=["daily_deal", "host"],
                condition=models.Q(daily_deal__isnull=False),
                name="one_game_per_daily_deal_and_player",
            ),
        ]

    def __str__(self):
        return f"Game {self.pk} ({self.variant_name}, {self.num_players} players)"

    @property
    def turn_based(self) -> bool:
        """Played a move every few hours or days: its players are told when it is their turn,
        and hop between such games."""
        return self.turn_seconds in TURN_BASED_SECONDS

    @property
    def variant_name(self) -> str:
        """The printed name of the game's variant (Biblios, Scripts & Scribes…)."""
        return registry.of(self).variant_name(self.variant)

    @property
    def option_settings(self) -> list[tuple[str, bool | str]]:
        """Each option this table takes, by its printed name, with its setting as the kind's
        options form reads the stored options (defaults filled in): a switch's True or False, any
        other option's printed choice (Ex Libris' solo difficulty: "4 · Scholar"). An option its
        variant does not have (Scripts & Scribes' Medieval bluff) is not listed, even stored."""
        form = registry.of(self).options_form(
            self.variant, data=self.options, players=self.num_players
        )
        form.full_clean()  # the options were valid when the table was opened
        return [
            (str(field.label), _printed_setting(field, form.cleaned_data[name]))
            for name, field in form.fields.items()
            if name in form.cleaned_data and registry.option_applies(field, self.variant)
        ]

    def engine_state(self):
        return registry.of(self).engine.loads(self.state)


def _printed_setting(field, value) -> bool | str:
    """A switch as True or False (the page words it), another option as its choice's label."""
    if isinstance(value, bool):
        return value
    return str(dict(getattr(field, "choices", ())).get(value, value))


class DailyDeal(models.Model):
    """One day's deal of one game: every player may play it once, alone against the site's bots
    at a fixed level, and compare their play with everyone's on the same cards (`games.daily`)."""

    kind = models.CharField(max_length=24)
    day = models.DateField()
    variant = models.CharField(max_length=32)
    num_players = models.PositiveSmallIntegerField()
    bot_level = models.CharField(max_length=24)
    seed = models.BigIntegerField(default=new_seed)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "day"], name="one_daily_deal_per_kind_and_day")
        ]

    def __str__(self):
        return f"{registry.get(self.kind).name} deal of {self.day.isoformat()}"


class Seat(models.Model):
    """A place at a table: a person, a bot (no user), or a person's seat a bot has taken over.

    `bot_level` says who plays the seat now: empty for its user, else the bot's level. A pure bot
    seat has no user; a seat taken over keeps its user so they can come back and take it again.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        help_text="Empty for a bot's own seat.",
    )
    # One of the game kind's `bot_levels`, checked by the services.
    bot_level = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="The bot playing this seat now; empty when its user plays.",
    )
    # Two bots of one level at a table are told apart ("Greedy bot 1", "Greedy bot 2"); set
    # when the table is opened, so a bot keeps its name when the seats are compacted.
    bot_number = models.PositiveSmallIntegerField(
        default=0, help_text="Among the table's bots of this level; 0 when it is the only one."
    )
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    abandoned = models.BooleanField(
        default=False, help_text="The player left (on purpose or after three timeouts)."
    )
    position = models.PositiveSmallIntegerField(help_text="Engine seat, clockwise from 0.")
    joined_at = models.DateTimeField(auto_now_add=True)
    # Copied from the result when the game finishes, so histories filter on won/lost in SQL.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    # Written by the services with every state of an active game (false once it ends), so the
    # "Your turn" list and the navigation's count are one indexed query, not a replayed state.
    on_turn = models.BooleanField(
        default=False, help_text="The engine waits on this seat's move in an active game."
    )

    class Meta:
        ordering = ["position"]
        indexes = [
            models.Index(fields=["user"], name="seat_on_turn", condition=models.Q(on_turn=True))
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_user_unique"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot_level=""),
                name="seat_user_or_bot",
            ),
        ]

    def __str__(self):
        return f"{self.display_name} at seat {self.position} of game {self.game_id}"

    @property
    def display_name(self) -> str:
        """The player's name, or the bot's for a bot's own seat ("Scholar bot", or "Scholar bot 2"
        beside another Scholar)."""
        if self.user_id is None and self.bot_number:
            return gettext("%(level)s bot %(number)s") % {
                "level": self.bot_label,
                "number": self.bot_number,
            }
        if self.user_id is None:
            return gettext("%(level)s bot") % {"level": self.bot_label}
        return str(self.user)

    @property
    def bot_label(self) -> str:
        """The printed name of the bot level playing this seat ("" when its user plays)."""
        return registry.of(self.game).bot_label(self.bot_level) if self.bot_level else ""

    @property
    def taken_over(self) -> bool:
        """A person's seat that a bot plays for now (they left or ran out of time)."""
        return self.user_id is not None and bool(self.bot_level)


class RematchOffer(models.Model):
    """A player's offer to play a finished game again, and the table it opened.

    One per game and player, for good: a host who leaves the new table closes it, and without
    this row asking again would open another and notify everyone again, each round.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rematch_offers")
    asker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rematch_offers"
    )
    # The table it opened; kept as a record (the offer still counts) if that table goes.
    table = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "asker"], name="one_rematch_offer_per_player")
        ]

    def __str__(self):
        return f"{self.asker} offers a rematch of game {self.game_id}"


class Move(models.Model):
    """One applied action. Append-only: never updated or deleted while the game exists."""

    class PlayedBy(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        TIMEOUT = "timeout", "Automatic move (time ran out)"
        TAKEOVER = "takeover", "Bot standing in for a player"
        ORDER = "order", "The player's standing order"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(
        help_text="1 for the first move; equals the version after it."
    )
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    state_hash = models.CharField(
        max_length=64,
        blank=True,
        help_text="SHA-256 of the engine state after this move, for the integrity check.",
    )
    played_by = models.CharField(max_length=8, choices=PlayedBy.choices, default=PlayedBy.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique")]

    def __str__(self):
        return f"move {self.seq} of game {self.game_id}: seat {self.seat} {self.action}"


class StandingOrder(models.Model):
    """What a player said in advance at a turn-based table (`games.play.orders` runs it).

    Private to its player: it tells their intent, so no other reader's page, push or API
    answer carries it. `kind` and `params` name one of the game kind's `OrderKind`s; `anchor`
    is what the order remembered of the moment it was given (from the seat's own view). An
    order is active until `ended_at`; `end_reason` is its kind's reason or one of the
    platform's (`games.play.orders.ENDINGS`).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_orders")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    params = models.JSONField(default=dict, blank=True)
    anchor = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_version = models.PositiveIntegerField()
    plays = models.PositiveSmallIntegerField(default=0, help_text="Moves it played.")
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_version = models.PositiveIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=24, blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=models.Q(ended_at=None),
                name="one_active_order_per_seat",
            )
        ]

    def __str__(self):
        return f"{self.kind} order of seat {self.seat} in game {self.game_id}"


class Connection(models.Model):
    """One open WebSocket on a game page, so every daphne worker sees who is connected.

    A live socket refreshes `seen_at` on a heartbeat; rows a crashed worker left behind go
    stale and stop counting (see `games.presence`).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_connections"
    )
    channel_name = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seen_at"])]

    def __str__(self):
        return f"{self.user} on game {self.game_id} ({self.channel_name})"


class ModerationAction(models.Model):
    """One thing a moderator did, with who, when, what and why (shown on the user and game)."""

    class Kind(models.TextChoices):
        BAN = "ban", "Banned"
        UNBAN = "unban", "Unbanned"
        MUTE = "mute", "Muted"
        UNMUTE = "unmute", "Unmuted"
        ABORT_GAME = "abort_game", "Aborted game"
        HIDE_MESSAGE = "hide_message", "Hid a chat message"
        RESOLVE_REPORT = "resolve_report", "Resolved a report"
        MESSAGE = "message", "Sent a message"

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_done"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="moderation_received",
        help_text="The user acted on, if any.",
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="moderation_actions",
    )
    reason = models.TextField()
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        target = self.user or self.game
        return f"{self.moderator}: {self.get_kind_display()} {target} ({self.reason[:40]})"


class ChatMessage(models.Model):
    """A line of a table's chat: the players' channel, or the spectators' (kept apart)."""

    class Channel(models.TextChoices):
        PLAYERS = "players", pgettext_lazy("chat channel", "Players")
        SPECTATORS = "spectators", pgettext_lazy("chat channel", "Spectators")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    channel = models.CharField(max_length=12, choices=Channel.choices)
    text = models.TextField()
    move_number = models.PositiveIntegerField(help_text="The game's version when it was sent.")
    hidden = models.BooleanField(default=False, help_text="Hidden by a moderator.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["game", "channel", "-created_at"]),
            models.Index(fields=["user", "-created_at"]),
        ]

    def __str__(self):
        return f"{self.user} in game {self.game_id}: {self.text[:40]}"


class Report(models.Model):
    """A player's report of a chat message or of a player, for the moderators' queue."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    move_number = models.PositiveIntegerField()
    message = models.ForeignKey(
        ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports"
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
    )
    reason = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self):
        return f"Report {self.pk} on {self.reported_user} in game {self.game_id}"


class Analysis(models.Model):
    """The review of a finished game (`games.analysis`): one per game, asked for by a reader of
    it, computed in the background and kept. `done` of `total` decisions is its progress."""

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("analysis status", "Waiting its turn")
        RUNNING = "running", pgettext_lazy("analysis status", "Analysing")
        DONE = "done", pgettext_lazy("analysis status", "Done")
        FAILED = "failed", pgettext_lazy("analysis status", "Could not be finished")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="analyses_requested",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    rounds = models.PositiveIntegerField(help_text="Sampled worlds per decision.")
    seed = models.BigIntegerField(default=new_seed)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0.0)
    failure = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(null=True, blank=True)  # when it last joined the queue
    started_at = models.DateTimeField(null=True, blank=True)
    # Written with every step of progress: a running analysis whose heartbeat stopped lost its
    # worker (a restart), and is queued again.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "queued_at"])]

    def __str__(self):
        return f"Analysis of game {self.game_id}: {self.status} ({self.done}/{self.total})"


class Tournament(models.Model):
    """A Swiss tournament (`games.tournaments`): staff schedule it, players register and check
    in before its start, and each round seats them at tables by standing (`swiss.pair_round`)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", pgettext_lazy("tournament status", "Registration open")
        RUNNING = "running", pgettext_lazy("tournament status", "In progress")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "Cancelled")

    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=24)
    variant = models.CharField(max_length=32)
    table_size = models.PositiveSmallIntegerField(help_text="Players at each table: 2, 3 or 4.")
    rounds = models.PositiveSmallIntegerField(help_text="How many rounds are played.")
    starts_at = models.DateTimeField()
    turn_seconds = models.PositiveIntegerField(
        help_text="Time for each move: live (30, 60, 180 s) or turn-based (12, 24, 72 h)."
    )
    bots_allowed = models.BooleanField(
        default=False, help_text="A short table takes bots instead of giving byes."
    )
    bot_level = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    seed = models.BigIntegerField(default=new_seed)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["status", "starts_at"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=4),
                name="tournament_table_size_2_to_4",
            ),
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="tournament_rounds"),
        ]

    def __str__(self):
        return self.name

    @property
    def variant_name(self) -> str:
        return registry.of(self).variant_name(self.variant)

    @property
    def turn_based(self) -> bool:
        return self.turn_seconds in TURN_BASED_SECONDS


class TournamentPlayer(models.Model):
    """A registration: checked in before the start, withdrawn (no show, left a game, removed by
    the staff) from the rounds still to be paired. Its id is the registration order."""

    class Withdrawal(models.TextChoices):
        NO_SHOW = "no_show", pgettext_lazy("tournament withdrawal", "did not check in")
        LEFT = "left", pgettext_lazy("tournament withdrawal", "left a game")
        REMOVED = "removed", pgettext_lazy("tournament withdrawal", "removed by the staff")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn = models.CharField(max_length=8, choices=Withdrawal.choices, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")
        ]

    def __str__(self):
        return f"{self.user} in {self.tournament}"


class TournamentRound(models.Model):
    """One round: its tables (`TournamentTable`) and who rested (a bye scores a win)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=list, blank=True, help_text="User ids resting this round.")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self):
        return f"Round {self.number} of {self.tournament}"


class TournamentTable(models.Model):
    """A round's table and its game; `places` ({user id: place}) once the game is over."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")
    places = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"Game {self.game_id} of {self.round}"
