"""The home page of a returning player (issue 19): the tables she is playing at (by her
profile's seats and the seat tokens her browser holds), her circles with their open tables.
The HTTP route is ``app/api/home.py``."""
