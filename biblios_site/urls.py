"""Root URL configuration: each app owns its own routes."""

from django.contrib import admin
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import include, path

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("friends/", include("friends.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("ratings.urls")),
    path("api/", include("games.api_urls")),
    # Push subscriptions, the web manifest, the service worker (root scope), the offline page.
    path("", include("webpush.urls")),
    path("admin/", admin.site.urls),
]

# Lets daphne serve static files in development; returns no routes when DEBUG is off.
urlpatterns += staticfiles_urlpatterns()
