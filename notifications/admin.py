"""Notifications and the outbox in the admin, read-only: what was sent, what failed and why."""

from django.contrib import admin

from biblios_site.admin_permissions import LookAndDeleteAdmin
from notifications.models import Delivery, Notification


class DeliveryInline(admin.TabularInline):
    model = Delivery
    fields = ("channel", "due_at", "sent_at", "attempts", "last_error")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(LookAndDeleteAdmin):
    list_display = ("created_at", "recipient", "event", "game", "actor", "read_at")
    list_filter = ("event",)
    search_fields = ("recipient__username", "recipient__display_name")
    raw_id_fields = ("recipient", "game", "actor")
    inlines = [DeliveryInline]


@admin.register(Delivery)
class DeliveryAdmin(LookAndDeleteAdmin):
    list_display = ("notification", "channel", "due_at", "sent_at", "attempts", "last_error")
    list_filter = ("channel", ("sent_at", admin.EmptyFieldListFilter))
    raw_id_fields = ("notification",)
