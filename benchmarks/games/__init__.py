"""Games registered for benchmarks only (never in the product registry)."""
