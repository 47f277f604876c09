"""Root URL configuration."""

from django.contrib import admin
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import path

from biblios_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
]

# Lets daphne serve static files in development; returns no routes when DEBUG is off.
urlpatterns += staticfiles_urlpatterns()
