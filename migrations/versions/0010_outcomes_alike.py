"""Every listing says who won alike: ``games.winner`` gains ``winners`` and ``result``.

The read model's ``winner`` held each game type's own account of its
result: Cassino's ``{"team", "reason"}``, Mass Cool Casino's ``{"seats",
"reason"}``. It now holds, in every game type, ``winners`` (the winning
seats, none for a draw or an aborted game) and ``result`` (how the game
ended), as a game's view has them, beside the former fields, which stay
for the clients that read them (``domain.summary.Summary.winner``).

The rows of finished games are brought to that shape here, in SQL, from
what they hold and from the games' first events, rather than by folding
each game with the service's code (``casino rebuild-projections``): a
migration must give the same rows whatever the code beside it becomes,
and the facts it reads do not change. Events are never updated, and
``GameCreated`` is still at schema version 1, which names each seat's team.

- Mass Cool Casino: ``seats`` are the winners, ``reason`` the result.
- Cassino: the winners are every seat of the winning ``team`` (its
  ``GameCreated`` lists the seats with their teams, which a seat keeps
  whoever holds it); none for a draw (``team`` null). ``reason`` is the result.

``casino verify`` finds these rows equal to the ones the fold gives.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        """
        UPDATE games SET winner = winner || jsonb_build_object('winners', winner->'seats', 'result', winner->'reason')
        WHERE winner ? 'seats' AND NOT winner ? 'winners'
        """
    )
    op.execute(
        """
        UPDATE games g SET winner = g.winner || jsonb_build_object(
            'result', g.winner->'reason',
            'winners', COALESCE((
                SELECT jsonb_agg(seat.number - 1 ORDER BY seat.number)
                FROM events created, jsonb_array_elements(created.data->'seats') WITH ORDINALITY AS seat(held, number)
                WHERE created.game_id = g.id AND created.version = 1 AND created.type = 'GameCreated'
                  AND seat.held->'team' = g.winner->'team'), '[]'::jsonb))
        WHERE g.winner ? 'team' AND NOT g.winner ? 'winners'
        """
    )


def downgrade() -> None:
    op.execute("UPDATE games SET winner = winner - 'winners' - 'result' WHERE winner ? 'winners'")
