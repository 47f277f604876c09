"""Push subscriptions in the admin: which devices a player gets notices on. Only browsers make
them (their keys are the browser's), so the admin may look and delete, never add or edit."""

from django.contrib import admin

from biblios_site.admin_permissions import LookAndDeleteAdmin
from webpush.models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(LookAndDeleteAdmin):
    list_display = ["user", "user_agent", "created_at"]
    search_fields = ["user__username", "user__display_name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "endpoint", "p256dh", "auth", "user_agent", "created_at"]
