"""The friends page and the friend buttons' form targets."""

from django.urls import path

from friends import views

app_name = "friends"

urlpatterns = [
    path("", views.friends_page, name="page"),
    path("<slug:action>/", views.act, name="act"),
]
