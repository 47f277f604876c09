"""Pages of the games app: the lobby, tables and the game board."""

from django.urls import path

from biblios_site import views

urlpatterns = [
    path("", views.home, name="home"),
]
