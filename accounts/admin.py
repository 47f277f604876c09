"""API tokens in the Django admin. The user admin, whose actions are games' moderation
services, is games' (games/admin.py), so accounts never imports games."""

from django.contrib import admin

from accounts import credentials
from accounts.models import ApiToken


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
