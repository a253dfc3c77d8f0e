"""What an operator watches: Prometheus metrics, JSON log lines, OpenTelemetry traces.

Each is off unless configured (``COVEN_METRICS=1``, ``COVEN_LOG_FORMAT=json``, ``OTEL_*``) and
costs a flag test in the paths it watches when off. See docs/OPERATING.md, "Watching it run".
"""
