"""What moderators may do with the records the site makes itself (games, moves, ratings,
friendships, notices, push devices): look, and sometimes delete, but never add or edit, since
only the services write them. One place for the admin pages of every app."""

from django.contrib import admin


class LookAndDeleteAdmin(admin.ModelAdmin):
    """Listed and shown; deleted where the model allows; never added or edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(LookAndDeleteAdmin):
    """Listed and shown only."""

    def has_delete_permission(self, request, obj=None):
        return False
