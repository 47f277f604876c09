"""Moderation in the Django admin: games (read-only, abortable, inspectable), users (banned
and muted), chat messages, reports, the action log and the games' reviews.

Games change only through the services, so the admin never edits a game's fields: its
actions ask for a reason on an intermediate page, call a service, and the service records a
`ModerationAction`. The user admin lives here, not in accounts, because its actions are
games' moderation services and accounts never imports games.
"""

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from accounts.models import User
from biblios_site.admin_permissions import LookAndDeleteAdmin, ReadOnlyAdmin
from biblios_site.inputs import whole_number
from games import access
from games.analysis import review_page
from games.chat import services as chat
from games.daily import selectors as daily_selectors
from games.kinds import registry
from games.models import (
    Analysis,
    ChatMessage,
    DailyDeal,
    Game,
    ModerationAction,
    Move,
    Report,
    Seat,
)
from games.moderation import services
from games.moderation import services as moderation
from games.moderation.admin_steps import ReasonForm, moderation_record, reason_step
from games.play import selectors


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ("position", "user", "bot_level", "consecutive_timeouts", "abandoned", "place", "won")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    """The move log, read-only: moves are append-only."""

    model = Move
    fields = ("seq", "seat", "action", "played_by", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "variant", "num_players", "status", "players", "created_at")
    list_filter = (
        "status",
        "kind",
        "variant",
        ("created_at", admin.DateFieldListFilter),
        ("seats__user", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("=id", "seats__user__username", "seats__user__display_name")
    date_hierarchy = "created_at"
    inlines = [SeatInline, MoveInline]
    actions = ["abort_games"]
    fields = (
        "id",
        "status",
        "kind",
        "variant",
        "num_players",
        "options",
        "private",
        "spectators_allowed",
        "host",
        "version",
        "created_at",
        "started_at",
        "finished_at",
        "result",
        "inspect_link",
        "moderation",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).defer("state").prefetch_related("seats__user")

    @admin.display(description="Players")
    def players(self, game):
        return ", ".join(seat.display_name for seat in game.seats.all())

    @admin.display(description="Replay inspector")
    def inspect_link(self, game):
        if not game.setup:
            return "Not started"
        return format_html(
            '<a href="{}">Inspect every move with all cards visible</a>',
            reverse("admin:games_game_inspect", args=[game.pk]),
        )

    @admin.display(description="Moderation record")
    def moderation(self, game):
        return moderation_record(game.moderation_actions.select_related("moderator"))

    @admin.action(description="Abort the selected games (players see a moderator ended them)")
    def abort_games(self, request, queryset):
        return reason_step(
            self,
            request,
            queryset,
            title="abort games",
            do=lambda game, data: services.abort_game(game.pk, request.user, data["reason"]),
        )

    # ------------------------------------------------------------------- inspector

    def get_urls(self):
        inspect = self.admin_site.admin_view(self.inspect_view)
        return [
            path("<int:game_id>/inspect/", inspect, name="games_game_inspect"),
            *super().get_urls(),
        ]

    def inspect_view(self, request, game_id: int):
        """Any step of any game with everything visible (`view(state, "all")`), and the
        integrity check of its move log."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        game = Game.objects.filter(pk=game_id).first()
        if game is None or not game.setup:
            raise Http404("no started game with this id")
        if not access.sees_other_seats(game, access.Visitor.of(game, request.user)):
            raise PermissionDenied  # a moderator seated at this game while it runs
        integrity = moderation.check_integrity(game)
        last = len(integrity.states) - 1
        raw = request.GET.get("move", "")
        step = whole_number(raw, maximum=last)
        if step is None:
            step = last
        state = integrity.states[step]
        kind = registry.of(game)
        graded = review_page.graded_moves(game)
        view = kind.engine.view(state, "all")
        context = {
            **self.admin_site.each_context(request),
            **kind.presenter.view_context(game, view, selectors.seat_names(game)),
            "board_template": kind.board_template,
            "title": f"Inspect game {game.pk}",
            "opts": self.model._meta,
            "integrity": integrity,
            "step": step,
            "last": last,
            "steps": [
                {
                    "step": index,
                    "events": kind.engine.events_for(s, "all"),
                    "graded": graded.get(index),
                }
                for index, s in enumerate(integrity.states)
            ],
            "oob": False,
            "skeleton": False,
        }
        return TemplateResponse(request, "admin/games/game/inspect.html", context)


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    """The moderators' trail: read-only, so it cannot be rewritten."""

    list_display = ("created_at", "moderator", "kind", "user", "game", "reason")
    list_filter = ("kind", ("moderator", admin.RelatedOnlyFieldListFilter))
    search_fields = ("user__username", "moderator__username", "=game__id", "reason")
    list_select_related = ("moderator", "user", "game")


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyAdmin):
    """Game reviews and their queue: read-only, since only the analysis job writes them."""

    list_display = ("game", "status", "done", "total", "requested_by", "cpu_seconds", "queued_at")
    list_filter = ("status",)
    search_fields = ("=game__id", "requested_by__username")
    list_select_related = ("game", "requested_by")


@admin.register(DailyDeal)
class DailyDealAdmin(ReadOnlyAdmin):
    """Every day's deals and their results: read-only, since only players' games write them."""

    list_display = ("day", "kind", "bot_level", "games_started", "games_finished")
    list_filter = ("kind",)
    date_hierarchy = "day"
    readonly_fields = ("results",)

    @admin.display(description="games started")
    def games_started(self, deal):
        return deal.games.count()

    @admin.display(description="games finished")
    def games_finished(self, deal):
        return deal.games.filter(status=Game.Status.FINISHED).count()

    @admin.display(description="results")
    def results(self, deal):
        """The deal's standings as its finished players read them, each linked to its game."""
        kind = registry.get(deal.kind, include_alpha=True)
        rows = daily_selectors.standings_of(kind, deal)
        return (
            format_html_join(
                "\n",
                '<p>{}. <a href="{}">{}</a>: {} ({}, place {})</p>',
                (
                    (
                        row.rank,
                        reverse("admin:games_game_change", args=[row.game_id]),
                        row.name,
                        row.points,
                        kind.daily.points_name,
                        row.place,
                    )
                    for row in rows
                ),
            )
            or "–"
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(LookAndDeleteAdmin):
    list_display = ("created_at", "game", "channel", "user", "text", "hidden")
    list_filter = ("hidden", "channel")
    search_fields = ("text", "user__username", "=game__id")
    list_select_related = ("user", "game")
    actions = ["hide_messages"]

    @admin.action(description="Hide the selected messages from every reader")
    def hide_messages(self, request, queryset):
        return reason_step(
            self,
            request,
            queryset,
            title="hide messages",
            do=lambda message, data: chat.hide_message(message.pk, request.user, data["reason"]),
        )


@admin.register(Report)
class ReportAdmin(LookAndDeleteAdmin):
    """The moderation queue: open reports first, each linking to the game at its move."""

    list_display = ("created_at", "status", "reporter", "reported_user", "reason", "at_move")
    list_filter = (
        "status",
        ("reported_user", admin.RelatedOnlyFieldListFilter),
        ("reporter", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = ("reason", "reporter__username", "reported_user__username", "=game__id")
    list_select_related = ("reporter", "reported_user", "game", "message")
    actions = ["resolve_reports"]
    fields = (
        "status",
        "reporter",
        "reported_user",
        "reason",
        "message_text",
        "at_move",
        "created_at",
    )
    readonly_fields = fields

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("-status", "-created_at")

    @admin.display(description="Message")
    def message_text(self, found):
        return found.message.text if found.message else "(a player was reported)"

    @admin.display(description="Game at the reported move")
    def at_move(self, found):
        url = reverse("admin:games_game_inspect", args=[found.game_id])
        return format_html(
            '<a href="{}?move={}">Game {}, move {}</a>',
            url,
            found.move_number,
            found.game_id,
            found.move_number,
        )

    @admin.action(description="Resolve the selected reports")
    def resolve_reports(self, request, queryset):
        return reason_step(
            self,
            request,
            queryset,
            title="resolve reports",
            do=lambda found, data: chat.resolve_report(found.pk, request.user, data["reason"]),
        )


class MuteForm(ReasonForm):
    period = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in moderation.MUTE_PERIODS.items()]
    )


class MessageForm(ReasonForm):
    message = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=2000,
        help_text="What the user reads, as written, in the site and by e-mail or push.",
    )


class MutedFilter(admin.SimpleListFilter):
    title = "muted"
    parameter_name = "muted"

    def lookups(self, request, model_admin):
        return [("yes", "Muted now"), ("no", "Not muted")]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "yes":
            return queryset.filter(muted_until__gt=now)
        if self.value() == "no":
            return queryset.exclude(muted_until__gt=now)
        return queryset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    """Users, with moderation: ban and mute only through actions, so each is logged with why."""

    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name",)}),
        (
            "Moderation",
            {"fields": ("ban_reason", "muted_until", "games", "reports", "moderation")},
        ),
    )
    add_fieldsets = (*BaseUserAdmin.add_fieldsets, ("Player", {"fields": ("display_name",)}))
    readonly_fields = ("is_active", "ban_reason", "muted_until", "games", "reports", "moderation")
    list_display = ("username", "display_name", "email", "is_active", "muted_until", "is_staff")
    list_filter = (*BaseUserAdmin.list_filter, MutedFilter)
    search_fields = (*BaseUserAdmin.search_fields, "display_name")
    actions = ["ban_users", "unban_users", "mute_users", "unmute_users", "message_users"]

    @admin.display(description="Games")
    def games(self, user):
        count = user.seats.count()
        url = reverse("admin:games_game_changelist") + f"?seats__user__id__exact={user.pk}"
        return format_html('<a href="{}">{} game{}</a>', url, count, "" if count == 1 else "s")

    @admin.display(description="Reports")
    def reports(self, user):
        url = reverse("admin:games_report_changelist")
        against = user.reports_received.count()
        made = user.reports_made.count()
        return format_html(
            '<a href="{}?reported_user__id__exact={}">{} against them</a>, '
            '<a href="{}?reporter__id__exact={}">{} made</a>',
            url,
            user.pk,
            against,
            url,
            user.pk,
            made,
        )

    @admin.display(description="Moderation record")
    def moderation(self, user):
        return moderation_record(user.moderation_received.select_related("moderator"))

    def _act(self, request, queryset, title, service, form_class=ReasonForm):
        def do(user, data):
            extra = [data[name] for name in ("period", "message") if name in data]
            service(user.pk, request.user, *extra, data["reason"])

        return reason_step(self, request, queryset, title=title, do=do, form_class=form_class)

    @admin.action(description="Ban the selected users (deactivate, with a reason)")
    def ban_users(self, request, queryset):
        return self._act(request, queryset, "ban users", moderation.ban_user)

    @admin.action(description="Lift the ban on the selected users")
    def unban_users(self, request, queryset):
        return self._act(request, queryset, "unban users", moderation.unban_user)

    @admin.action(description="Mute the selected users in table chats for a while")
    def mute_users(self, request, queryset):
        return self._act(request, queryset, "mute users", moderation.mute_user, MuteForm)

    @admin.action(description="Unmute the selected users")
    def unmute_users(self, request, queryset):
        return self._act(request, queryset, "unmute users", moderation.unmute_user)

    @admin.action(description="Send the selected users a message from the moderators")
    def message_users(self, request, queryset):
        return self._act(request, queryset, "message users", moderation.message_user, MessageForm)
