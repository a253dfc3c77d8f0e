"""History and ratings (issue 19): a finished match is recorded once, by a reaction that runs
after the move that ended it (never inside it), and read back as a profile's history, its
per-game figures and ratings, a leaderboard, a head-to-head record and a match's end screen.

- ``records``: the plain records this package hands out;
- ``finish``: a finished match as history keeps it (places, scores, the game's statistics);
- ``ratings``: the OpenSkill (Plackett–Luce) maths and the rule of which matches are rated;
- ``ledger``: the one transaction that writes a result, adds to its players' totals and moves
  ratings, exactly once;
- ``totals``: each profile's running totals per game (what her page shows per game);
- ``reaction``: when to record (the finishing move's notice, a sweep for what a dead worker
  missed);
- ``queries``: every read (history, figures, leaderboard, head to head, one match);
- ``visibility``: who may see which profile (private profiles, ``COVEN_PUBLIC_PROFILES``).

HTTP routes: ``app/api/results.py``.
"""
