"""The friends' JSON API routes, mounted under /api/ with the rest of the API (docs/api.md)."""

from django.urls import path

from biblios_site import inputs  # noqa: F401 (registers the <text:…> path converter)
from friends import api

urlpatterns = [
    path("friends", api.friends, name="friends"),
    path("friends/<text:username>/<text:action>", api.friend_action, name="friend_action"),
]
