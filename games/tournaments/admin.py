"""Tournaments in the admin: the staff schedule one (checked by `services.create_tournament`),
read its players and rounds, cancel it (no more pairing, its players told; games in progress
play to their end) and remove a player from the rounds still to come. Nothing else is edited
here: the services write tournaments."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from biblios_site import errors
from games.kinds import registry
from games.models import Tournament, TournamentPlayer
from games.tournaments import services

SETTINGS = (
    "name",
    "kind",
    "variant",
    "table_size",
    "rounds",
    "starts_at",
    "turn_seconds",
    "bots_allowed",
    "bot_level",
)


class TournamentForm(forms.ModelForm):
    """The settings, each checked by the service when saved (its refusal shown on the form)."""

    kind = forms.ChoiceField(choices=registry.choices)
    variant = forms.CharField(required=False, help_text="Empty: the game's default variant.")
    bot_level = forms.CharField(required=False, help_text="Empty: the game's default bot.")

    class Meta:
        model = Tournament
        fields = SETTINGS

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        self.settings = services.TournamentSettings(**{name: data.get(name) for name in SETTINGS})
        try:
            services.checked_settings(self.user, self.settings)
        except errors.ServiceError as refused:
            raise forms.ValidationError(errors.sentence(refused)) from None
        return data


class PlayerInline(admin.TabularInline):
    model = TournamentPlayer
    fields = ("user", "registered_at", "checked_in_at", "withdrawn", "withdrawn_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "starts_at", "table_size", "rounds", "status")
    list_filter = ("status", "kind")
    search_fields = ("name",)
    actions = ["cancel_tournaments"]

    form = TournamentForm

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.user = request.user  # a class made for this request: the service asks who creates
        return form

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return (*SETTINGS, "status", "created_by", "finished_at", "remove_link")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_inlines(self, request, obj=None):
        return [PlayerInline] if obj is not None else []

    def save_model(self, request, obj, form, change):
        """Created by the service (which checks every setting again), never saved from here."""
        if change:
            raise PermissionDenied
        created = services.create_tournament(request.user, form.settings)
        obj.pk, obj._state.adding, obj._state.db = created.pk, False, created._state.db

    @admin.display(description="players")
    def remove_link(self, tournament):
        return format_html(
            '<a href="{}">Remove a player from the rounds still to come</a>',
            reverse("admin:games_tournament_remove_player", args=[tournament.pk]),
        )

    @admin.action(description="Cancel the selected tournaments (no more rounds; players told)")
    def cancel_tournaments(self, request, queryset):
        for tournament in queryset:
            try:
                services.cancel(tournament.pk)
            except errors.ServiceError as refused:
                self.message_user(request, f"{tournament}: {refused}", messages.WARNING)
            else:
                self.message_user(request, f"{tournament} is cancelled.")

    def get_urls(self):
        remove = self.admin_site.admin_view(self.remove_player_view)
        return [
            path("<int:tournament_id>/remove/", remove, name="games_tournament_remove_player"),
            *super().get_urls(),
        ]

    def remove_player_view(self, request, tournament_id: int):
        """A player still in, withdrawn from the later rounds (their results so far stay)."""
        if not self.has_view_permission(request) or not request.user.is_staff:
            raise PermissionDenied
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        change = reverse("admin:games_tournament_change", args=[tournament.pk])
        if request.method == "POST":
            try:
                services.remove_player(tournament.pk, int(request.POST.get("user", "0")))
            except (errors.ServiceError, ValueError) as refused:
                self.message_user(request, f"Not removed: {refused}", messages.ERROR)
            else:
                self.message_user(request, "The player is withdrawn from the later rounds.")
            return redirect(change)
        players = tournament.players.filter(withdrawn="").select_related("user")
        context = {
            **self.admin_site.each_context(request),
            "title": f"Remove a player from {tournament}",
            "tournament": tournament,
            "players": players,
            "change": change,
        }
        return TemplateResponse(request, "admin/games/tournament/remove_player.html", context)
