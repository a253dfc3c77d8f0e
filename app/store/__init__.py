"""Persistence: SQLAlchemy models (``models``), the engine factory (``db``) and the one place
that reads and writes them (``repository``)."""
