"""The pages a player reads before playing: how to play each game, with a
section for each of its variants, linked from the front page, which leads
to play, the open games and one's own games first and offers the public
neither the operator's page nor the metrics."""

from __future__ import annotations

import re

import pytest
from markupsafe import escape

from domain.game_types import GAME_TYPES


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_each_game_has_a_page_on_how_to_play_it_with_each_variant(client, game_type):
    page = client.get(f"/rules/{game_type}/play")

    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert re.search(r"<h1>How to play: [^<]+</h1>", text)
    for heading in ("The deal", "The end"):
        assert f">{heading}</h2>" in text
    for variant, rules in GAME_TYPES[game_type].VARIANTS.items():
        assert f'<section id="{variant}"' in text and str(escape(rules.description)) in text
    assert f'href="/rules/{game_type}"' in text  # the rulebook stays, for developers
    assert "test_" not in text and "tests/" not in text  # written for players, not engineers


@pytest.mark.parametrize("game_type", sorted(GAME_TYPES))
def test_each_variant_has_a_page_of_its_own_linked_from_its_games_page(client, game_type):
    game_page = client.get(f"/rules/{game_type}/play").get_data(as_text=True)
    for variant, rules in GAME_TYPES[game_type].VARIANTS.items():
        page = client.get(f"/rules/{game_type}/{variant}/play")
        assert page.status_code == 200 and page.mimetype == "text/html"
        text = page.get_data(as_text=True)
        name = " ".join(w.capitalize() for w in variant.split("-"))
        assert f"<h1>How to play {name}</h1>" in text and str(escape(rules.description)) in text
        assert ">The deal</h2>" in text and f'href="/rules/{game_type}?variant={variant}"' in text
        assert "test_" not in text and "tests/" not in text
        assert f'href="/rules/{game_type}/{variant}/play"' in game_page


def test_a_game_or_a_variant_with_no_page_is_404(client):
    assert client.get("/rules/poker/play").status_code == 404
    assert client.get("/rules/poker/royal/play").status_code == 404
    assert client.get("/rules/cassino/poker/play").status_code == 404


def test_the_front_page_leads_to_play_the_lobby_and_your_games_first(client):
    text = client.get("/").get_data(as_text=True)

    links = re.findall(r'<a [^>]*href="([^"]+)"', text)
    doors = [links.index(link) for link in ("/play/", "/play/#open-games-area", "/play/#my-games-area")]
    assert doors == sorted(doors) and doors[-1] < min(i for i, link in enumerate(links) if link.startswith("/rules/"))
    assert all(f"/rules/{game_type}/play" in links for game_type in GAME_TYPES)
    assert all(f"/rules/cassino/{variant}/play" in links for variant in GAME_TYPES["cassino"].VARIANTS)
    assert "/metrics" not in links and "/play/operator.html" not in links
