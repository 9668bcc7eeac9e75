"""The README's curl walk-through and its players and lobby snippet, run as
written against a live ``casino serve``.

Each is the first ``sh`` block under its heading ("Playing a hand with
curl", "Players, open seats and the lobby"). Every command of both runs in
one bash, the walk-through first, with a marker printed before it so that
each command's output can be told apart; a comment line that starts with
``# {`` right after a command is what the README says that command shows,
and the command's answer must hold it: every key given with the value given,
``"..."`` standing for any value and a trailing ``...`` for more keys.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.service.serving import Serving, serve_environment

README = Path(__file__).resolve().parents[2] / "README.md"
MARKER = "@@command@@"


@dataclass
class Command:
    text: str
    shows: list[str] = field(default_factory=list)  # expected-answer comments


#: The README's sections whose first ``sh`` block runs here, in this order.
SECTIONS = ("## Playing a hand with curl", "## Players, open seats and the lobby")


def walk_through() -> list[Command]:
    """The commands of every section's block, each with the answers the README shows for it."""
    return [command for heading in SECTIONS for command in block_commands(heading)]


def block_commands(heading: str) -> list[Command]:
    """The commands of the first ``sh`` block under ``heading``."""
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index(heading):]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL).group(1)
    commands: list[Command] = []
    pending = ""
    for line in block.splitlines():
        if pending:
            pending += "\n" + line
        elif line.startswith("# {") and commands:
            commands[-1].shows.append(line[2:])
            continue
        elif not line.strip() or line.startswith("#"):
            continue
        else:
            pending = line
        if not pending.endswith("\\"):
            commands.append(Command(pending))
            pending = ""
    return commands


def expected(comment: str):
    """A README answer comment as JSON; a trailing ``...`` (more keys) dropped."""
    return json.loads(re.sub(r",\s*\.\.\.\s*}", "}", comment))


def holds(answer, shown) -> bool:
    """Whether ``answer`` has everything ``shown`` says it has."""
    if shown == "...":
        return True
    if isinstance(shown, dict):
        return isinstance(answer, dict) and all(k in answer and holds(answer[k], v)
                                                for k, v in shown.items())
    if isinstance(shown, list):
        return (isinstance(answer, list) and len(answer) == len(shown)
                and all(holds(a, s) for a, s in zip(answer, shown)))
    return answer == shown


def test_the_matcher_tells_a_wrong_answer_from_a_right_one():
    shown = expected('{"code": "rule_violation", "view": {"turn": 1, ...}, "ticket": "...", ...}')
    assert holds({"code": "rule_violation", "view": {"turn": 1, "x": 2}, "ticket": "t", "y": 0}, shown)
    assert not holds({"code": "rule_violation", "view": {"turn": 0}, "ticket": "t"}, shown)
    assert not holds({"code": "rule_violation", "view": {"turn": 1}}, shown)


@pytest.fixture
def server(tmp_path, own_database_url):
    # A live stream ends after two seconds, so that the snippet's `curl -N` ends too. The walk-through
    # leaves a game on a running clock: on a database of its own, no other test's time keeper claims it.
    environ = serve_environment(DATABASE_URL=own_database_url, CASINO_DATA_DIR=str(tmp_path / "data"),
                                CASINO_WORKERS="1", CASINO_THREADS="2", CASINO_STREAM_MAX_SECONDS="2")
    serving = Serving(tmp_path, environ, "readme")
    yield serving
    serving.stop()


def test_the_curl_snippets_run_as_written_and_show_what_they_say(server, tmp_path):
    commands = walk_through()
    script = "set -eu\n" + "".join(f"printf '\\n{MARKER}%d\\n' {i}\n{c.text}\n"
                                    for i, c in enumerate(commands))
    environ = serve_environment(CASINO_PORT=str(server.port))
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    outputs = re.split(rf"\n{MARKER}\d+\n", done.stdout)[1:]
    assert len(outputs) == len(commands)

    checked = 0
    answers = {}
    for command, output in zip(commands, outputs):
        if command.text.startswith("curl -sN"):
            answers[command.text] = output  # a live stream's text
        elif command.text.startswith("curl") and "> " not in command.text:
            answers[command.text] = answer = json.loads(output)  # every other answer shown is JSON
        for shown in command.shows:
            assert holds(answer, expected(shown)), (command.text, shown, answer)
            checked += 1
    assert checked >= 3, "the walk-through shows what answers to expect"

    # The spectators' view and log show none of the cards left in Ann's hand.
    ann_view = answers['curl -s $API/v1/games/$GAME -H "Authorization: Bearer $ANN"']
    played = next(a for text, a in answers.items() if "Idempotency-Key: ann-1" in text)
    kept = set(ann_view["hand"]) - {played["events"][0]["data"]["card"]}
    assert len(kept) == 3
    public = answers["curl -s $API/v1/games/$GAME"], answers['curl -s "$API/v1/games/$GAME/events?after=0&limit=50"']
    assert public[0]["status"] == "in_progress" and len(public[1]["events"]) == 4
    assert not any(f'"{card}"' in json.dumps(public) for card in kept)

    # The lobby listed the game with its seats open; then Cy, a player, and Dee, a guest, took them,
    # and it is Cy's to deal: Cy's games and Cy's stream say so.
    def answer_to(start: str):
        return next(answer for text, answer in answers.items() if text.startswith(start))
    game = json.loads((tmp_path / "open.json").read_text())["id"]
    [listed] = [g for g in answer_to('curl -s "$API/v1/lobby')["games"] if g["id"] == game]
    assert [s["open"] for s in listed["seats"]] == [False, True, True]
    [mine] = answer_to("curl -s $API/v1/players/me/games")["games"]
    assert (mine["id"], mine["seat"], mine["your_turn"]) == (game, 1, True)
    assert f'event: your_turn\ndata: {{"game":"{game}"' in answer_to("curl -sN")
