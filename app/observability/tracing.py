"""OpenTelemetry traces of the move path, off unless ``OTEL_TRACES_EXPORTER`` names an
exporter (``console``, ``otlp``: OTLP over HTTP/protobuf, the exporter Coven ships).

Everything else comes from the standard variables, read by the SDK itself:
``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES`` (the resource),
``OTEL_EXPORTER_OTLP_ENDPOINT``/``_HEADERS`` (the exporter), ``OTEL_TRACES_SAMPLER`` (the
sampler), ``OTEL_BSP_*`` (the batching). Off, ``span`` hands back one shared no-op context
manager: the move path pays a flag test, no tracer at all.

Spans carry the room code, the game, the seat and the version, never a token.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from opentelemetry import trace
from opentelemetry.context import Context

log = logging.getLogger(__name__)

ENTRY_POINTS = "opentelemetry_traces_exporter"
TRACER = "coven"
_NOOP: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()

_tracer: trace.Tracer | None = None
_shutdown: Callable[[], None] | None = None


def _exporter_names(raw: str) -> list[str]:
    names = [n.strip() for n in raw.split(",") if n.strip() and n.strip().lower() != "none"]
    protocol = os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or os.environ.get(
        "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"
    )
    if any(n == "otlp" for n in names) and protocol.strip() != "http/protobuf":
        raise ValueError(
            f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: Coven ships the OTLP exporter over "
            "http/protobuf only"
        )
    return ["otlp_proto_http" if n == "otlp" else n for n in names]


def exporters_from_env() -> list[EntryPoint]:
    """The span exporters ``OTEL_TRACES_EXPORTER`` names (none: tracing stays off); a name the
    SDK does not know, or OTLP over another protocol than the one installed, is a
    ``ValueError`` saying so (``coven serve`` checks this before it starts)."""
    names = _exporter_names(os.environ.get("OTEL_TRACES_EXPORTER", ""))
    if not names or os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return []
    known = {e.name: e for e in entry_points(group=ENTRY_POINTS)}
    for name in names:
        if name not in known:
            installed = ", ".join(sorted(known))
            raise ValueError(f"OTEL_TRACES_EXPORTER: no exporter {name!r} (installed: {installed})")
    return [known[name] for name in names]


def configure_from_env() -> bool:
    """Start tracing if the ``OTEL_*`` variables ask for it (once per process); whether it
    is on."""
    if _tracer is not None:
        return True
    exporters = exporters_from_env()
    if not exporters:
        return False
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    provider = TracerProvider(resource=Resource.create())
    for exporter in exporters:
        provider.add_span_processor(BatchSpanProcessor(exporter.load()()))
    use(provider)
    return True


def use(provider: Any) -> None:
    """Trace through ``provider`` (an SDK ``TracerProvider``): what ``configure_from_env``
    does, and what a test does with an in-memory exporter."""
    global _tracer, _shutdown
    trace.set_tracer_provider(provider)
    _tracer = provider.get_tracer(TRACER)
    _shutdown = provider.shutdown


def enabled() -> bool:
    return _tracer is not None


def span(
    name: str, attributes: dict[str, Any] | None = None, parent: Context | None = None
) -> contextlib.AbstractContextManager[Any]:
    """A span around a step of the move path (the current span is its parent, or the span
    ``parent`` holds); a shared no-op when tracing is off."""
    if _tracer is None:
        return _NOOP
    return _tracer.start_as_current_span(name, context=parent, attributes=attributes)


def annotate(attributes: dict[str, Any]) -> None:
    """Add ``attributes`` to the current span (when tracing is on)."""
    if _tracer is not None:
        trace.get_current_span().set_attributes(attributes)


def current() -> Context | None:
    """The current span's context, for a step that runs in another task (the fan-out)."""
    if _tracer is None:
        return None
    from opentelemetry.context import get_current

    return get_current()


def shutdown() -> None:
    """Flush the spans still batched (the process stops)."""
    if _shutdown is not None:
        with contextlib.suppress(Exception):
            _shutdown()


def stop() -> None:
    """Tracing off again: spans from now on are the shared no-op."""
    global _tracer, _shutdown
    shutdown()
    _tracer = _shutdown = None
