"""Site-wide pages that belong to no single app."""

from django.shortcuts import render


def home(request):
    """Landing page."""
    return render(request, "home.html")
