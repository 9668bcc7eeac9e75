"""The operator's commands on the database: ``verify``, ``export``,
``replay`` and ``rebuild-projections``.

Each takes what it works on and where to write, and returns the exit status
(0 when all is well, 1 when something was found wrong or refused);
``service.cli`` parses the command line and opens the database. Long work
shows a progress bar on stderr when stderr is a terminal.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TypeVar

from tqdm import tqdm

from service import transcript
from service.projection import Unfoldable, expected_row, refold_checked
from service.readmodel import ReadModel
from service.store import EventStore
from service.transcript import TranscriptError
from service.verify import Evidence, Report, verify

T = TypeVar("T")


def progress(items: Iterable[T], what: str) -> Iterator[T]:
    """``items``, with a bar counting them on a terminal (none in logs or pipes)."""
    return iter(tqdm(items, desc=what, unit="game", file=sys.stderr, disable=None, dynamic_ncols=True))


def verify_games(read_model: ReadModel, game_id: uuid.UUID | None, out: IO[str], *,
                 as_json: bool = False) -> int:
    """Check one game and report every check, or check every game and report
    the problems. ``as_json`` prints each report whole instead (``Report.to_json``,
    full head hash included): one object for one game, a list for every game."""
    if game_id is not None:
        events, row = read_model.evidence(game_id)
        if not events and row is None:
            print(f"casino: there is no game {game_id}", file=sys.stderr)
            return 1
        report = verify(Evidence(game_id, events, row))
        print(json.dumps(report.to_json(), indent=2) if as_json else describe(report, every_check=True),
              file=out)
        return 0 if report.ok else 1
    game_ids = read_model.game_ids()
    reports = []
    for each in progress(game_ids, "verify"):
        report = verify(Evidence(each, *read_model.evidence(each)))
        reports.append(report.to_json() if as_json else report.ok)
        if not report.ok and not as_json:
            tqdm.write(describe(report, every_check=False), file=out)
    failed = sum(1 for r in reports if not (r["ok"] if as_json else r))
    if as_json:
        print(json.dumps(reports, indent=2), file=out)
    else:
        print(f"{len(game_ids)} games checked: " + (f"{failed} with problems." if failed else "all sound."),
              file=out)
    return 1 if failed else 0


def describe(report: Report, *, every_check: bool) -> str:
    lines = [f"game {report.game_id}: {'sound' if report.ok else 'PROBLEMS'}"
             f" (version {report.version}, head {report.head or 'none'})"]
    for finding in report.findings:
        if every_check or not finding.ok:
            lines.append(f"  {finding.check}: {'ok' if finding.ok else 'FAILED'}: {finding.detail}")
            lines += [f"    {d.field}: stored {d.stored!r}, the events say {d.expected!r}"
                      for d in finding.differences]
    return "\n".join(lines)


def export_game(read_model: ReadModel, game_id: uuid.UUID, path: Path | None, *, force: bool = False) -> int:
    """Write the game's transcript to ``path``, or to stdout; nothing if it
    cannot be made, or if the game fails verification (unless ``force``)."""
    events, row = read_model.evidence(game_id)
    if not events:
        print(f"casino: there is no game {game_id}", file=sys.stderr)
        return 1
    report = verify(Evidence(game_id, events, row))
    if not report.ok:
        failed = ", ".join(f.check for f in report.findings if not f.ok)
        if not force:
            print(f"casino: game {game_id} fails verification ({failed}; see casino verify {game_id});"
                  " not exported. Pass --force to export it anyway.", file=sys.stderr)
            return 1
        print(f"casino: game {game_id} fails verification ({failed}); exported anyway.", file=sys.stderr)
    try:
        document = transcript.export(game_id, events)
    except Unfoldable as error:
        print(f"casino: cannot export game {game_id}: {error}", file=sys.stderr)
        return 1
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if path is None:
        sys.stdout.write(text)
        return 0
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"casino: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


def replay_transcript(store: EventStore | None, text: str, out: IO[str]) -> int:
    """Check a transcript and replay it: into ``store``, or, without one,
    onto ``out``, one line per event."""
    try:
        game = transcript.parse(text)
        if store is None:
            for event, state in transcript.steps(game):  # noqa: B007 (the last state is reported)
                print(f"{event.version:>5}  {event.type:<14} {transcript.summary(event)}", file=out)
            print(f"{len(game.events)} events replayed: the game is {state.status.replace('_', ' ')}.",
                  file=out)
            return 0
        game_id, tokens = transcript.replay(store, game)
    except TranscriptError as error:
        print(f"casino: {error}", file=sys.stderr)
        return 1
    same = "under its own id" if game_id == game.game_id else "under a new id (its own is taken)"
    print(f"Replayed {len(game.events)} events as game {game_id}, {same}.", file=out)
    print("New seat tokens (shown this once):", file=out)
    for seat, token in enumerate(tokens):
        print(f"  seat {seat}: {token}", file=out)
    return 0


def rebuild_projections(store: EventStore, read_model: ReadModel, out: IO[str]) -> int:
    """Recompute every game's row of the read model from its events alone.

    One game at a time, each in a short transaction that locks its row
    (``ReadModel.rebuild``), so the service keeps serving and appending
    meanwhile; rows of games without events are then removed. A game whose
    events do not fold keeps its row and is reported.
    """
    game_ids = store.game_ids()
    failed = 0
    for game_id in progress(game_ids, "rebuild"):
        try:
            read_model.rebuild(game_id, lambda events: expected_row(events, refold_checked(events)))
        except Unfoldable as error:
            failed += 1
            tqdm.write(f"game {game_id}: not rebuilt: {error}", file=out)
    removed = read_model.delete_rows_without_events()
    print(f"{len(game_ids) - failed} of {len(game_ids)} games rebuilt; "
          f"{removed} rows without events removed.", file=out)
    return 1 if failed else 0
