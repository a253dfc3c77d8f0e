"""Routes of webhooks (issue 20): being built."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
