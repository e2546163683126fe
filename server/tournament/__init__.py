"""Tournaments: an event of several rounds on this server (seating, standings, its routes)."""
