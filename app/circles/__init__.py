"""Circles: a group of friends with a name, members, a standing invite link, its own
leaderboard and recent matches, and tables opened "for the circle" (issue 19).

``store.py`` holds the queries, ``service.py`` the use cases and their rules (who may do what),
``invites.py`` the invite codes. The HTTP routes are ``app/api/circles.py``.
"""
