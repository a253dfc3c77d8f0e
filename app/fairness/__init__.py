"""Fair by proof (issue 22, docs/FAIRNESS.md): commit–reveal seeds, the match export and its
verification. ``seeds`` and ``verify`` are pure (no database, no server): ``coven verify``
runs them on any machine with Coven installed."""
