from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import ApiToken, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Player", {"fields": ("display_name",)}))
    add_fieldsets = (*BaseUserAdmin.add_fieldsets, ("Player", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff")
    search_fields = (*BaseUserAdmin.search_fields, "display_name")


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
