"""Tournaments: rounds of timed tables in one chat, individual or team entry, and their standings.

Seed 000 plays several tables at once, each 30 minutes, a preliminary round without trading;
seed 004 plays 10 matches in which every team sends one representative, 45 minutes each, one
point per match won, equal points sharing a place. This package runs both on top of the
``GameService``: it keeps ``tables.py`` to single games and only adds what a tournament needs
(entrants and teams, the draw, a round's tables, standings, an admin's corrections).

Everything lives in the database: a round's start is a ``DeadlineRow`` with ``tournament_id``
(fired by the service's sweeper, claimed once), each table of a round is an ordinary table with a
chat key of its own (``<chat>#t<tournament>r<round>n<table>``, so an adapter can give it a thread
or forum topic) and its own match clock; results are read back from the finished tables.

Rulings where the seeds are silent:
- A shared win (equal valuation at time-out, B-17 / D-16) gives every co-winner a full win, and in
  team play a full point each: nobody "lost" that match.
- Individual standings: wins, then the sum of the valuations of all the entrant's matches (taken
  when the match ends, by time or otherwise); equal on both, the place is shared. Team standings:
  points only (seed 004), equal points share a place and the next place is skipped (10, 7, 7, 3 →
  1, 2, 2, 4).
- A team's representative is named per match by its captain; a team that named nobody for a
  match is represented by its captain. A substitute or an AI seat put in by an admin plays for the
  entrant whose seat it is: the result counts for that entrant.
- Fewer than two entrants when the first round is due: the tournament is called off. A round
  whose previous round still has a table running waits a minute and tries again.
- Pausing holds every clock of the tournament (round start, match clocks, decision clocks) and
  stops moves; resuming moves each of them later by the time the pause lasted.
- A cancelled table counts for nobody unless an admin corrects its result.
- When the last table of a round ends (by the rules, the clock or an admin), the round is over and
  the adapters post the standings once (``table_finished``).
- Board tournaments follow seed 000 unless the organiser chose otherwise (``round_options``): rent
  must be claimed (``rent_claim``, when the engine has it), and the preliminary rounds forbid
  trading (``no_trading``). "Preliminary" is every round but the last: the last round is the
  final, so a one-round tournament trades freely. An option the organiser named (``no_trading``
  on or off, ``rent_claim=off``) holds in every round instead.

The package is cut along its concerns: ``base`` (what every part shares: the constants, the chat
keys of a round's tables, and ``Part``, the rows read and written, the log, a round's clocks),
``registration`` (``create``, signing up, teams, representatives), ``rounds`` (the draw and a
round's start by its clock), ``results`` (the finished tables read back, the end of a round, the
standings) and ``admin`` (pause, resume, cancel, replace, correct). Each part gets the core and only
the collaborators it uses; ``Tournaments`` builds them and forwards to them, and this module
re-exports every name the other modules and the tests import, so ``engine.service.tournaments``
reads as one module from outside.
"""

from __future__ import annotations

from engine.service.clocks import Clocks
from engine.service.core import Core
from engine.service.lobby import Lobby
from engine.service.loop import TableLoop
from engine.service.tournaments.admin import Admin
from engine.service.tournaments.base import (
    MODES,
    REMIND_KIND,
    REMIND_SECONDS,
    RETRY_SECONDS,
    ROUND_KIND,
    Part,
    base_chat,
    chat_key_of,
)
from engine.service.tournaments.registration import Registration
from engine.service.tournaments.results import Results, places
from engine.service.tournaments.rounds import Rounds, draw, round_options, table_sizes

# what other modules and the tests import from ``engine.service.tournaments`` (the single module's public names)
__all__ = [
    "base_chat", "chat_key_of", "draw", "MODES", "places", "REMIND_KIND", "REMIND_SECONDS", "RETRY_SECONDS",
    "ROUND_KIND", "round_options", "table_sizes", "Tournaments",
]


class Tournaments:
    """The tournament operations; admin rights are decided by the adapter and passed as ``is_admin``.

    Made with every service (``GameService.tournaments``), so that whichever process runs the clock
    task (a bot, or a plain ``tycoon web``) starts rounds on time: it registers with the service's
    clocks for the rounds' clocks and with its loop for the end of each table (a round may end
    with it). Every operation is a part's method, forwarded as is."""

    def __init__(self, core: Core, lobby: Lobby, clocks: Clocks, loop: TableLoop) -> None:
        self.core = core
        self.db = core.db
        self.lobby = lobby
        self.rows = rows = Part(core)
        self.registration = registration = Registration(core)
        self.results = results = Results(core)
        self.rounds = rounds = Rounds(core, lobby, results)
        self.admin = admin = Admin(core, lobby, results)
        clocks.handle("tournament", rounds.fire)
        loop.when_finished(results.table_finished, key="tournaments")
        # reading
        self.get = rows.get
        self.in_chat = rows.in_chat
        self.entrants = rows.entrants
        self.matches = rows.matches
        self.corrections = rows.corrections
        # setting up
        self.create = registration.create
        self.sign_up = registration.sign_up
        self.withdraw = registration.withdraw
        self.create_team = registration.create_team
        self.join_team = registration.join_team
        self.name_representative = registration.name_representative
        # rounds and results
        self.fire = rounds.fire
        self.sync = results.sync
        self.table_finished = results.table_finished
        self.standings = results.standings
        # the admin's tools
        self.pause = admin.pause
        self.resume = admin.resume
        self.cancel = admin.cancel
        self.cancel_table = admin.cancel_table
        self.replace = admin.replace
        self.correct = admin.correct

    @classmethod
    def of(cls, service) -> Tournaments:
        """A service's tournaments (``GameService.tournaments``)."""
        return service.tournaments
