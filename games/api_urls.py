"""The JSON board API, mounted under /api/."""

urlpatterns = []
