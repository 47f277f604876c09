"""Friendships and blocks in the admin, for moderators to look at (who blocked whom when a
report comes in): read-only, as players make and end them through `friends.services`."""

from django.contrib import admin

from biblios_site.admin_permissions import ReadOnlyAdmin
from friends.models import Block, Friendship


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin):
    list_display = ["sender", "receiver", "status", "created_at", "accepted_at"]
    list_filter = ["status"]
    search_fields = ["sender__username", "sender__display_name", "receiver__username"]
    list_select_related = ["sender", "receiver"]


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    search_fields = ["blocker__username", "blocker__display_name", "blocked__username"]
    list_select_related = ["blocker", "blocked"]
