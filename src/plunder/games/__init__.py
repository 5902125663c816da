"""One package per game; each exposes ENTRY."""
