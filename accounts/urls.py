"""Sign up, log in, profiles."""

app_name = "accounts"

urlpatterns = []
