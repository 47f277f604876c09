"""Push subscriptions under /push/; the manifest, service worker, offline page and the icon
browsers look for (/favicon.ico) at the root."""

from django.urls import path

from webpush import views

app_name = "webpush"

urlpatterns = [
    path("push/subscribe/", views.subscribe, name="subscribe"),
    path("push/unsubscribe/", views.unsubscribe, name="unsubscribe"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline, name="offline"),
    path("favicon.ico", views.favicon, name="favicon"),
]
