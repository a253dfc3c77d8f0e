"""Issue 11.10: app/README.md, "Security and limits", names every limit, its default and its
setting, and each setting is the one the server reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.settings import Settings
from app.text import MAX_JSON_DEPTH

README = Path(__file__).resolve().parents[2] / "app" / "README.md"

# setting → (Settings field, the default as the README writes it, the default's value)
LIMITS = {
    "COVEN_MAX_BODY_BYTES": ("max_body_bytes", "64 KiB", 64 * 1024),
    "COVEN_MAX_URL_BYTES": ("max_url_bytes", "4096 bytes", 4096),
    "COVEN_MAX_FRAME_BYTES": ("max_frame_bytes", "16 KiB", 16 * 1024),
    "COVEN_CHAT_MAX_CHARS": ("chat_max_chars", "500 chars", 500),
    "COVEN_CHAT_BURST": ("chat_burst", "5 lines / 10 s", 5),
    "COVEN_CHAT_WINDOW_SECONDS": ("chat_window_seconds", "5 lines / 10 s", 10.0),
    "COVEN_CHAT_SEAT_BURST": ("chat_seat_burst", "10 lines / 10 s", 10),
    "COVEN_CHAT_CLIENT_BURST": ("chat_client_burst", "10 lines / 10 s", 10),
    "COVEN_ROOMS_BURST": ("rooms_burst", "burst 20", 20),
    "COVEN_ROOMS_PER_MINUTE": ("rooms_per_minute", "10 / min", 10.0),
    "COVEN_SOCKETS_PER_CLIENT": ("sockets_per_client", "32", 32),
    "COVEN_REFUSED_BURST": ("refused_burst", "20 / 10 s", 20),
    "COVEN_REFUSED_WINDOW_SECONDS": ("refused_window_seconds", "20 / 10 s", 10.0),
    "COVEN_REFUSED_CLIENT_BURST": ("refused_client_burst", "100 / 10 s", 100),
    "COVEN_WS_SEND_QUEUE": ("ws_send_queue", "256", 256),
    "COVEN_WS_SEND_QUEUE_BYTES": ("ws_send_queue_bytes", "1 MiB", 1024 * 1024),
    "COVEN_WS_SEND_TIMEOUT": ("ws_send_timeout", "10 s", 10.0),
    "COVEN_WS_PING_INTERVAL": ("ws_ping_interval", "30 s, then 15 s", 30.0),
    "COVEN_WS_PING_TIMEOUT": ("ws_ping_timeout", "30 s, then 15 s", 15.0),
}


def section() -> str:
    text = README.read_text()
    start = text.index("## Security and limits")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else len(text)]


def row(setting: str) -> str:
    rows = [line for line in section().splitlines() if line.startswith("|") and setting in line]
    assert rows, f"{setting} has no row in app/README.md, 'Security and limits'"
    return rows[0]


@pytest.mark.parametrize("setting", sorted(LIMITS))
def test_each_limit_has_its_default_and_setting(
    setting: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    field, shown, value = LIMITS[setting]
    assert getattr(Settings(), field) == value
    assert shown in row(setting)
    # The setting is the one the server reads.
    changed = value * 2 if isinstance(value, int) else value * 2.0
    monkeypatch.setenv(setting, str(changed))
    assert getattr(Settings.from_env(), field) == changed


def test_every_limit_setting_is_in_the_section() -> None:
    text = section()
    fields = {
        f
        for f in Settings.__dataclass_fields__
        if re.search(r"max|burst|per_|queue|window|timeout", f)
    }
    documented = {LIMITS[s][0] for s in LIMITS}
    assert fields <= documented, f"undocumented limits: {sorted(fields - documented)}"
    assert f"{MAX_JSON_DEPTH} levels" in text
    assert "COVEN_ALLOWED_ORIGINS" in text
    assert "coven.token." in text and "?token=" in text
