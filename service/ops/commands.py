"""The operator's commands on the database: ``verify``, ``export``,
``replay`` and ``rebuild-projections``.

Each takes what it works on and where to write, and returns the exit status
(0 when all is well, 1 when something was found wrong or refused);
``service.ops.cli`` parses the command line and opens the database. Long work
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

from service.events import EventStore, Unfoldable, refold_checked
from service.ops import transcripts as transcript
from service.ops.transcripts import TranscriptError
from service.ops.verify import Evidence, Report, verify
from service.readmodel import ReadModel
from service.projection import expected_row

T = TypeVar("T")


def progress(items: Iterable[T], what: str) -> Iterator[T]:
    """``items``, with a bar counting them on a terminal (none in logs or pipes)."""
    return iter(tqdm(items, desc=what, unit="game", file=sys.stderr, disable=None, dynamic_ncols=True))


def verify_games(read_model: ReadModel, game_id: uuid.UUID | None, out: IO[str],
                 key: bytes | None = None, *, as_json: bool = False) -> int:
    """Check one game and report every check, or check every game and report
    the problems; ``key`` checks the checkpoints' signatures. ``as_json``
    prints each report whole instead (``Report.to_json``, full head hash
    included): one object for one game, a list for every game."""
    if game_id is not None:
        return _verify_one(read_model, game_id, out, key, as_json=as_json)
    game_ids = read_model.game_ids()
    reports: list[Report] = []
    for each in progress(game_ids, "verify"):
        report = verify(Evidence(each, *read_model.evidence(each), key))
        reports.append(report)
        if not report.ok and not as_json:
            tqdm.write(describe(report, every_check=False), file=out)
    failed = sum(1 for r in reports if not r.ok)
    if as_json:
        print(json.dumps([r.to_json() for r in reports], indent=2), file=out)
    else:
        print(f"{len(game_ids)} games checked: " + (f"{failed} with problems." if failed else "all sound."),
              file=out)
    return 1 if failed else 0


def _verify_one(read_model: ReadModel, game_id: uuid.UUID, out: IO[str], key: bytes | None, *,
                as_json: bool) -> int:
    """Check one game and report every check (``verify_games``)."""
    events, row, checkpoint = read_model.evidence(game_id)
    if not events and row is None and checkpoint is None:
        print(f"casino: there is no game {game_id}", file=sys.stderr)
        return 1
    report = verify(Evidence(game_id, events, row, checkpoint, key))
    print(json.dumps(report.to_json(), indent=2) if as_json else describe(report, every_check=True), file=out)
    return 0 if report.ok else 1


HEADS_FORMAT = "casino-heads"


def export_heads(read_model: ReadModel, output: Path | None, out: IO[str]) -> int:
    """Write every game's head (last version and hash), to keep outside the database."""
    document = {"format": HEADS_FORMAT, "format_version": 1, "heads": read_model.heads()}
    return write(json.dumps(document, indent=1) + "\n", output, out)


def write(text: str, path: Path | None, out: IO[str]) -> int:
    """Write ``text`` to ``path``, or to ``out`` without one; the exit status
    (1, with one line on stderr, when the file cannot be written)."""
    if path is None:
        out.write(text)
        return 0
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        print(f"casino: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0


def check_heads(read_model: ReadModel, text: str, out: IO[str]) -> int:
    """Compare heads exported earlier with the games now: each game must still
    hold the exported version with the exported hash (its chain may have grown
    since). A deleted, truncated or rewritten game shows here even when its
    database was rewritten whole, checkpoints included."""
    try:
        heads = _kept_heads(text)
    except ValueError as error:
        print(f"casino: this is not a {HEADS_FORMAT} document that `casino heads` wrote: {error}", file=sys.stderr)
        return 1
    failed = 0
    for game_id, version, head in heads:
        events = read_model.evidence(game_id)[0]
        stored = next((e.hash for e in events if e.version == version), None)
        if stored != head:
            failed += 1
            what = ("it no longer has that version (truncated or deleted)" if stored is None
                    else "its hash there differs (rewritten)")
            print(f"game {game_id}: kept head at version {version}, but {what}.", file=out)
    print(f"{len(heads)} kept heads checked: "
          + (f"{failed} no longer match." if failed else "all still in place."), file=out)
    return 1 if failed else 0


def _kept_heads(text: str) -> list[tuple[uuid.UUID, int, str]]:
    """The heads in a document ``export_heads`` wrote: (game id, version, hash) each; ValueError if it is not one."""
    document = json.loads(text)
    if not isinstance(document, dict) or document.get("format") != HEADS_FORMAT:
        raise ValueError("its format is not named")
    heads = document.get("heads")
    if not isinstance(heads, list):
        raise ValueError("it has no list of heads")
    found = []
    for n, kept in enumerate(heads, start=1):
        try:
            game_id, version, head = uuid.UUID(kept["game_id"]), kept["version"], kept["head"]
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ValueError(f"head {n} lacks a game id, version or hash") from None
        if not isinstance(version, int) or not isinstance(head, str):
            raise ValueError(f"head {n} has a version or hash of the wrong kind")
        found.append((game_id, version, head))
    return found


def describe(report: Report, *, every_check: bool) -> str:
    lines = [f"game {report.game_id}: {'sound' if report.ok else 'PROBLEMS'}"
             f" (version {report.version}, head {report.head or 'none'})"]
    for finding in report.findings:
        if every_check or not finding.ok:
            lines.append(f"  {finding.check}: {'ok' if finding.ok else 'FAILED'}: {finding.detail}")
            lines += [f"    {d.field}: stored {d.stored!r}, the events say {d.expected!r}"
                      for d in finding.differences]
    return "\n".join(lines)


def export_game(read_model: ReadModel, game_id: uuid.UUID, path: Path | None, key: bytes | None = None, *,
                force: bool = False) -> int:
    """Write the game's transcript to ``path``, or to stdout; nothing if it
    cannot be made, or if the game fails verification (unless ``force``);
    ``key`` checks the game's checkpoint as ``verify`` does."""
    events, row, checkpoint = read_model.evidence(game_id)
    if not events:
        print(f"casino: there is no game {game_id}", file=sys.stderr)
        return 1
    report = verify(Evidence(game_id, events, row, checkpoint, key))
    if not report.ok:
        failed = ", ".join(f.check for f in report.findings if not f.ok)
        if not force:
            print(f"casino: game {game_id} fails verification ({failed}; see casino verify {game_id});"
                  " not exported. Pass --force to export it anyway.", file=sys.stderr)
            return 1
    try:
        document = transcript.export(game_id, events)
    except Unfoldable as error:
        print(f"casino: cannot export game {game_id}: {error}", file=sys.stderr)
        return 1
    status = write(json.dumps(document, indent=2, ensure_ascii=False) + "\n", path, sys.stdout)
    if status == 0 and not report.ok:
        failed = ", ".join(f.check for f in report.findings if not f.ok)
        print(f"casino: game {game_id} fails verification ({failed}); exported anyway.", file=sys.stderr)
    return status


def replay_transcript(store: EventStore | None, text: str, out: IO[str]) -> int:
    """Check a transcript and replay it: into ``store``, or, without one,
    onto ``out``, one line per event."""
    try:
        game = transcript.parse(text)
        if store is None:
            width = max(len(event.type) for event in game.events)
            for event, state in transcript.steps(game):  # noqa: B007 (the last state is reported)
                print(f"{event.version:>5}  {event.type:<{width}} {transcript.summary(event)}", file=out)
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
        print(f"  seat {seat}: {token or '(open: a player joins it)'}", file=out)
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
