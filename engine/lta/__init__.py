"""Lighter Than Air Warfare (Dale Poole's play-by-e-mail adaptation of Lloyd Krassner's ZEPPELIN
BATTLES of the GREAT WAR): pure and deterministic, every die drawn from a committed per-player
stream. docs/lta-rules-interpretations.md settles what the text leaves open."""
