"""Profiles: a player who chose to be remembered, without e-mail or password (issue 19).

A browser holds a profile by a secret in an HttpOnly cookie (stored here only as its sha256);
a passkey or a one-time device link gives another browser a secret of its own. The HTTP
routes are ``app/api/profiles.py``; history and ratings live in ``app/results``.
"""
