"""`ws/games/<id>/review/`: the review page's region, pushed again as the analysis moves on:
its place in the queue, its progress, then the review itself."""

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from accounts.middleware import in_reader_language
from biblios_site.overload import admit_message
from biblios_site.sockets import Consumer
from games import access
from games.analysis import review_page
from games.analysis.services import review_group
from games.models import Game


class ReviewConsumer(Consumer):
    """Whoever may read the game's review page (`review_page.review_context`) gets its region
    on connect and after every hint of the analysis' progress; anyone else is closed."""

    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = self.scope.get("user")
        self.group = review_group(self.game_id)
        await self.accept()
        html = await database_sync_to_async(self._render)()
        if html is None:
            await self.close()
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send(text_data=html)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to ask this socket; one that floods it is closed all the same."""
        await admit_message(self, self.user)

    async def review_changed(self, event):
        html = await database_sync_to_async(self._render)()
        if html is not None:
            await self.send(text_data=html)

    @in_reader_language
    def _render(self) -> str | None:
        """The region for this reader, or None when they may not read it (any more)."""
        game = Game.objects.filter(pk=self.game_id).first()
        if game is None:
            return None
        invited = access.holds_invite(game, session=self.scope.get("session"))
        visitor = access.Visitor.of(game, self.user, invited=invited)
        if access.record_refusal(game, visitor) is not None:
            return None
        context = {**review_page.review_context(game, visitor), "oob": True}
        return render_to_string("games/review.html#review", context)
