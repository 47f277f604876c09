"""The notifications' JSON API routes, mounted under /api/ with the rest of the API."""

from django.urls import path

from notifications import api

urlpatterns = [
    path("notifications", api.notifications, name="notifications"),
    path("notifications/read", api.notifications_read, name="notifications_read"),
]
