"""The leaderboard page and its API endpoint, mounted at the site root."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    # Here rather than in games.api_urls, whose last route answers every other /api/ path.
    path("api/leaderboard", views.api_leaderboard, name="api_leaderboard"),
]
