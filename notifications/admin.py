"""Notifications and the outbox in the admin, read-only: what was sent, what failed and why."""

from django.contrib import admin

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
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "recipient", "event", "game", "actor", "read_at")
    list_filter = ("event",)
    search_fields = ("recipient__username", "recipient__display_name")
    raw_id_fields = ("recipient", "game", "actor")
    inlines = [DeliveryInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "channel", "due_at", "sent_at", "attempts", "last_error")
    list_filter = ("channel", ("sent_at", admin.EmptyFieldListFilter))
    raw_id_fields = ("notification",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
