"""Ratings in the admin, read-only: they change only when a rated game finishes."""

from django.contrib import admin

from biblios_site.admin_permissions import ReadOnlyAdmin
from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ["user", "kind", "variant", "rating", "games"]
    list_filter = ["kind", "variant"]
    search_fields = ["user__username", "user__display_name"]
    list_select_related = ["user"]
    ordering = ["kind", "variant", "-rating"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ["game", "user", "kind", "variant", "place", "before", "after", "created_at"]
    list_filter = ["kind", "variant"]
    search_fields = ["user__username", "user__display_name", "game__id"]
    list_select_related = ["user", "game"]
    raw_id_fields = ["game", "user"]
