"""Root URL configuration: each app owns its own routes."""

from django.contrib import admin
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import include, path

from friends import api_urls as friends_api
from games.api import urls as games_api
from notifications import api_urls as notifications_api

# One JSON API under /api/, its routes each app's own; the games' last (its final route is the
# JSON 404 for any other path).
API = [*friends_api.urlpatterns, *notifications_api.urlpatterns, *games_api.urlpatterns]

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("friends/", include("friends.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("ratings.urls")),
    path("api/", include((API, "api"))),
    # Push subscriptions, the web manifest, the service worker (root scope), the offline page.
    path("", include("webpush.urls")),
    path("admin/", admin.site.urls),
]

# Lets daphne serve static files in development; returns no routes when DEBUG is off.
urlpatterns += staticfiles_urlpatterns()
