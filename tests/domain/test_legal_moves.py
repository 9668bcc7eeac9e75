"""Legal moves: complete on small tables, bounded and still correct on crowded ones."""

from itertools import combinations

from domain.cassino import Move, Play, decide, is_legal, legal_moves

from .positions import position


def test_every_listed_move_is_accepted_and_the_list_is_complete_on_a_small_table():
    state = position(table="AS 2H 3D 5C 6S 8D B1=9:7C+2C@1", hands=["8H 2D 9S QH", "KD 4S"])
    listed = legal_moves(state, 0).first()
    assert not listed.truncated
    for move in listed.moves:
        decide(state, Play(0, move))
    ids = [it.id for it in state.table]
    brute = set()
    for c in state.hands[0]:
        candidates = [Move.trail(c)]
        for k in range(1, len(ids) + 1):
            for chosen in combinations(ids, k):
                candidates.append(Move.capture(c, *chosen))
                candidates += [Move.build(c, v, *chosen) for v in range(2, 11)]
        brute |= {m for m in candidates if is_legal(state, 0, m)}
    assert set(listed.moves) == brute


def test_the_view_supports_in_and_count():
    state = position(table="5C 3D", hands=["8H 2C", "4S"])
    moves = legal_moves(state, 0)
    assert Move.parse("8H capture 5C 3D") in moves
    assert Move.parse("8H capture 5C") not in moves
    assert moves.count() == len(list(moves))


def test_no_moves_for_a_seat_that_is_not_to_play():
    state = position(table="5C 3D", hands=["8H 2C", "4S"])
    assert legal_moves(state, 1).count() == 0


def test_a_crowded_table_gives_a_bounded_list_marked_truncated_and_unlisted_moves_still_play():
    low = [f"{r}{s}" for r in ("A", "2", "3", "4", "5") for s in "SHD"] + ["6S", "6H", "7S", "7H", "8S"]
    state = position(table=" ".join(low), hands=["10C 9C 8C 7C", "6C"])
    listed = legal_moves(state, 0).first(limit=50)
    assert listed.truncated and len(listed.moves) == 50
    assert [m.action for m in listed.moves[:4]] == ["trail"] * 4
    assert listed.moves[4].action == "capture"  # the largest captures come next
    unlisted = Move.parse("10C capture AS 2S 3S 4S")
    assert unlisted not in listed.moves and is_legal(state, 0, unlisted)


def test_listing_stops_after_a_fixed_amount_of_work():
    low = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7") for s in "SHDC"]
    state = position(table=" ".join(low), hands=["10S 9S 8S 8D", "6C"])
    listed = legal_moves(state, 0).first(limit=10_000, work=100)
    assert listed.truncated and len(listed.moves) < 10_000
