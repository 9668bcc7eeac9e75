"""The rules of each game, as the rules pages show them: its part of
docs/rules.md (one top-level heading per game), rendered as CommonMark with
tables by markdown-it-py, each heading with an id as GitHub makes it (so
``#counting-out`` reaches the same section here and there), and the section
about the variant a table plays. The file ships in the package as
``service/rules.md`` (a link to docs/rules.md that setuptools copies as a file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from domain.game_types import GAME_TYPES
RULES_PATH = Path(__file__).resolve().parents[1] / "rules.md"  # service/rules.md


@dataclass(frozen=True)
class Section:
    """One game's rules: its title (the top-level heading) and its text."""

    title: str
    text: str


@dataclass(frozen=True)
class Playing:
    """The variant a table plays, and the heading of its own section (if it has one)."""

    name: str
    heading: str | None
    anchor: str | None


def slug(heading: str) -> str:
    """A heading's id, as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def sections() -> dict[str, Section]:
    """Each registered game type's part of the rules, found by its name in a top-level heading."""
    parts = re.split(r"^# (.+)$", RULES_PATH.read_text(encoding="utf-8"), flags=re.M)[1:]
    titled = [(parts[i].strip(), parts[i + 1]) for i in range(0, len(parts), 2)]
    found = {}
    for game_type in GAME_TYPES:
        for title, text in titled:
            if re.search(rf"(^|-){re.escape(game_type)}(-|$)", slug(title)):
                found[game_type] = Section(title, text)
                break
    return found


def _with_heading_ids(md: MarkdownIt) -> None:
    def add_ids(state) -> None:
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type == "heading_open":
                token.attrSet("id", slug(tokens[i + 1].content))

    md.core.ruler.push("heading_ids", add_ids)


@cache
def _renderer() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table").use(_with_heading_ids)


@cache
def rendered(game_type: str) -> Markup:
    # The text is ours, from the package: its HTML is shown as it is.
    return Markup(_renderer().render(sections()[game_type].text))  # noqa: S704


def playing(game_type: str, variant: str | None) -> Playing | None:
    """The variant named in the link, and the section of the game's rules that is about it."""
    if not variant or not re.fullmatch(r"[a-z0-9-]{1,40}", variant):
        return None
    for heading in re.findall(r"^#{2,3} (.+)$", sections()[game_type].text, re.M):
        if re.search(rf"(^|-){re.escape(variant)}(-|$)", slug(heading)):
            return Playing(variant, heading.strip(), slug(heading))
    return Playing(variant, None, None)


@dataclass(frozen=True)
class Variant:
    """A variant as the players' page lists it: its name, its anchor, the seats it takes, and what it is."""

    name: str
    anchor: str
    players: str
    description: str


@cache
def for_players(game_type: str) -> Markup:
    """How to play the game, in a player's words (``service/playing-<game_type>.md``)."""
    text = (RULES_PATH.parent / f"playing-{game_type}.md").read_text(encoding="utf-8")
    return Markup(_renderer().render(text))  # noqa: S704 - our own text, from the package


def variants_of(game_type: str) -> list[Variant]:
    """Each variant of the game, as the players' page lists it."""
    return [Variant(" ".join(w.capitalize() for w in name.split("-")), name,
                    " or ".join(", ".join(map(str, sorted(v.players))).rsplit(", ", 1)), v.description)
            for name, v in GAME_TYPES[game_type].VARIANTS.items()]
