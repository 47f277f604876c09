"""Motion on the board (static/js/board.js), in a real browser, through real moves and pushes.

A card placed in the public space glides there from where the mover saw it drawn, and eases in
for the other player; a card taken from the public space glides into the taker's hand and fades
out for the other; a die whose value changed rolls, the others stay still; the new log line
lights up. Every animation lasts under 400 ms, none runs when the reader prefers reduced motion,
and none draws a card the reader may not see: every card id ever put into the page, even for a
moment, is one of the server-rendered boards the page was sent.

Two hooks run before any script of the page (their own scripts, outside the page's policy): a
wrapper of `Element.animate` that notes every animation the page starts, and a
MutationObserver that notes every `data-card` ever inserted.
"""

import re

import pytest

from tests.browser.players import MOVE_TIMEOUT_MS, seat_a_table, unique_tag, whose_turn

# Tall enough that every region is on screen: the script leaves alone what nobody can see.
TALL = {"width": 1200, "height": 2200}
LONGEST_MS = 400
SENT_CARD = re.compile(r'data-card="([^"]+)"')

HOOKS = """
(() => {
  window.__motion = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (keyframes, options) {
    const animation = animate.call(this, keyframes, options);
    window.__motion.push({
      id: animation.id,
      card: this.getAttribute("data-card"),
      die: this.closest("[data-category]")?.dataset.category ?? null,
      region: this.closest("[data-version]")?.id ?? null,
      cardsInside: [...this.querySelectorAll("[data-card]")].map((face) => face.dataset.card),
      connected: this.isConnected,
      duration: animation.effect.getComputedTiming().duration,
      firstKeyframe: animation.effect.getKeyframes()[0],
    });
    return animation;
  };
  window.__cardsInserted = new Set();
  const note = (node) => {
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const seen = window.__cardsInserted;
    if (node.hasAttribute("data-card")) seen.add(node.getAttribute("data-card"));
    node.querySelectorAll("[data-card]").forEach((face) => seen.add(face.dataset.card));
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") note(record.target);
      else record.addedNodes.forEach(note);
    }
  }).observe(document, {
    childList: true, subtree: true, attributes: true, attributeFilter: ["data-card"],
  });
})();
"""


class Watched:
    """A player's page with the hooks (reloaded to install them), everything the server sent it
    (the page, its socket's messages, the answers to its moves), and its script errors."""

    def __init__(self, player, reduced_motion="no-preference"):
        self.player, self.page = player, player.page
        self.errors: list[str] = []
        self.sent: list[str] = []
        self.move_answers = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("websocket", self._listen)
        self.page.on("response", self._note_move_answer)
        self.page.emulate_media(reduced_motion=reduced_motion)
        player.context.add_init_script(HOOKS)
        self.sent.append(self.page.reload().text())
        player.wait_for_board()
        player.mark_loaded()
        self.since = 0  # the first animation of the latest move

    def _note_move_answer(self, answer) -> None:
        if answer.url.endswith("/act/"):
            self.move_answers.append(answer)

    def _listen(self, socket) -> None:
        socket.on("framereceived", lambda message: self.sent.append(message))

    def before_move(self) -> None:
        self.since = len(self.animations())

    def cards_sent(self) -> set[str]:
        """Every card id in the boards the server rendered for this page."""
        bodies = self.sent + [answer.text() for answer in self.move_answers if answer.ok]
        return {card for body in bodies for card in SENT_CARD.findall(str(body))}

    def animations(self) -> list[dict]:
        return self.page.evaluate("() => window.__motion")

    def cards_inserted(self) -> set[str]:
        return set(self.page.evaluate("() => [...window.__cardsInserted]"))

    def moved_since_the_move(self) -> list[dict]:
        return self.animations()[self.since :]

    def wait_for_animation(self, animation_id: str, card=None, regions=None) -> dict:
        """The first animation of that id (of that card, in one of those regions) that the
        latest move started."""
        self.page.wait_for_function(
            """([since, id, card, regions]) => window.__motion.slice(since).some((a) =>
                a.id === id
                && (card === null || a.card === card)
                && (regions === null || regions.includes(a.region)))""",
            arg=[self.since, animation_id, card, regions],
            timeout=MOVE_TIMEOUT_MS,
        )
        return next(
            a
            for a in self.moved_since_the_move()
            if a["id"] == animation_id
            and (card is None or a["card"] == card)
            and (regions is None or a["region"] in regions)
        )

    def next_frames(self) -> None:
        """Two frames on: whatever the last push set moving has been started."""
        self.page.evaluate(
            "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )


def move_and_wait(watched: list[Watched], mover: Watched, press):
    """`press` a move's button on the mover's page, and wait until every page shows the new
    board; returns what `press` did."""
    version = mover.player.version()
    mover.player.wait_until_settled()
    for each in watched:
        each.before_move()
    pressed = press()
    for each in watched:
        each.player.wait_for_version_above(version)
        each.next_frames()
    return pressed


def faces_in(watched: Watched, region: str) -> set[str]:
    return set(
        watched.page.evaluate(
            "(region) => [...document.querySelectorAll(`#${region} [data-card]`)]"
            ".map((face) => face.dataset.card)",
            region,
        )
    )


def place(watched: list[Watched], mover: Watched, to: str, region: str) -> str:
    """Place the drawn card (`to`: self, auction or public), which shows up in the mover's
    `region`; returns its id."""
    before = faces_in(mover, region)
    button = f"#board-actions form.action-place button[name=to][value={to}]"
    move_and_wait(watched, mover, lambda: mover.page.click(button))
    (card,) = faces_in(mover, region) - before
    return card


def shake_a_die(watched: Watched) -> str:
    """Make the page believe a die shows another value than it does; the next board brings the
    true one back, a change to roll for. Returns the die's category."""
    return watched.page.evaluate(
        """() => {
            const die = document.querySelector("#board-dice .die[data-value]");
            die.dataset.value = String(+die.dataset.value % 6 + 1);
            return die.dataset.category;
        }"""
    )


def check_no_invented_card(watched: Watched) -> None:
    inserted = watched.cards_inserted()
    assert inserted, "the hook saw no card at all"
    sent = watched.cards_sent()
    invented = inserted - sent
    assert not invented, f"{watched.player.name} was shown cards no board of theirs had: {invented}"
    for animation in watched.animations():
        assert animation["duration"] <= LONGEST_MS, animation
        if animation["id"] in {"card-move", "card-enter"}:
            # Only a face with its id moves: never a face-down back.
            assert animation["card"] in sent, animation
        if animation["id"] == "card-leave":
            assert animation["card"] is None and not animation["cardsInside"], animation
    assert not watched.errors, watched.errors


@pytest.mark.slow(seconds=15)
def test_cards_glide_dice_roll_and_nothing_hidden_shows(live_site, browser):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"ivo{tag}", f"jun{tag}"], viewports=[TALL] * 2)
    try:
        mover_player = whose_turn(players)
        watched = [Watched(player) for player in players]
        mover = next(each for each in watched if each.player is mover_player)
        other = next(each for each in watched if each is not mover)

        # The drawn card goes to the public space: it glides there from where the mover saw it.
        public_card = place(watched, mover, "public", "board-public")
        glide = mover.wait_for_animation("card-move", public_card, ["board-public"])
        assert glide["connected"], glide
        assert glide["firstKeyframe"]["transform"].startswith("translate("), glide
        assert glide["firstKeyframe"]["transform"] != "translate(0px, 0px) scale(1, 1)", glide
        assert 0 < glide["duration"] <= LONGEST_MS, glide
        # The other player never saw it drawn: it eases in where it lands.
        other.wait_for_animation("card-enter", public_card, ["board-public"])
        for each in watched:
            each.wait_for_animation("log-new")

        # A die the other page believes changed rolls there, and only that die; the mover's
        # dice did not change and stay still.
        shaken = shake_a_die(other)
        auction_card = place(watched, mover, "auction", "board-my-auction-cards")
        other.wait_for_animation("die-roll")
        rolled = {a["die"] for a in other.moved_since_the_move() if a["id"] == "die-roll"}
        assert rolled == {shaken}
        assert not [a for a in mover.animations() if a["id"] == "die-roll"]
        assert auction_card not in other.cards_sent()  # face down on the auction pile

        # The mover ends the turn; the other player takes the public card into their hand.
        while not other.player.my_turn():
            move_and_wait(watched, mover, mover.player.play_one_move)
        pick = f"#board-actions form.action-pick button[name=card][value='{public_card}']"
        move_and_wait(watched, other, lambda: other.page.click(pick))
        # Into the hand; a church card waits in the auction region while it is resolved.
        taken = other.wait_for_animation("card-move", public_card, ["board-hand", "board-auction"])
        assert taken["firstKeyframe"]["transform"].startswith("translate("), taken
        if public_card in faces_in(mover, "board-auction"):  # a church card, held in sight
            mover.wait_for_animation("card-move", public_card, ["board-auction"])
        else:  # into a hand the mover does not see: it fades out where it was
            mover.wait_for_animation("card-leave", regions=["board-public"])

        assert auction_card not in other.cards_inserted()
        for each in watched:
            check_no_invented_card(each)
    finally:
        for player in players:
            player.close()


@pytest.mark.slow(seconds=10)
def test_no_motion_when_the_reader_prefers_reduced_motion(live_site, browser):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"kai{tag}", f"lea{tag}"], viewports=[TALL] * 2)
    try:
        mover_player = whose_turn(players)
        watched = [Watched(player, reduced_motion="reduce") for player in players]
        mover = next(each for each in watched if each.player is mover_player)
        other = next(each for each in watched if each is not mover)

        shake_a_die(other)
        version = mover.player.version()
        place(watched, mover, "public", "board-public")
        for each in watched:
            assert each.player.version() > version
            # The board did change: the card is in the public space, still, for both.
            card = each.page.get_attribute("#board-public [data-card]", "data-card")
            assert card, "the placed card is not in the public space"
            assert each.animations() == [], each.animations()
            assert each.page.evaluate("() => document.getAnimations().length") == 0
            assert not each.errors, each.errors
    finally:
        for player in players:
            player.close()
