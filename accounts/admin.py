from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from accounts import credentials
from accounts.models import ApiToken, User
from games import moderation
from games.admin_steps import ReasonForm, moderation_record, reason_step


class MuteForm(ReasonForm):
    period = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in moderation.MUTE_PERIODS.items()]
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
    actions = ["ban_users", "unban_users", "mute_users", "unmute_users"]

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
            extra = [data["period"]] if "period" in data else []
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


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Staff can see and revoke tokens; the hash is shown read-only and a token cannot be
    created here, because its raw value would have nowhere to be shown once."""

    list_display = ("prefix", "user", "name", "created_at", "last_used_at")
    list_select_related = ("user",)
    search_fields = ("prefix", "name", "user__username", "user__display_name")
    readonly_fields = ("user", "key_hash", "prefix", "created_at", "last_used_at")
    fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at")

    def has_add_permission(self, request):
        return False

    # Revoking here closes the token's sockets like revoking on the profile page.
    def delete_model(self, request, obj):
        credentials.revoke_tokens(ApiToken.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        credentials.revoke_tokens(queryset)
