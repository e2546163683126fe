"""The HTTP routes: the rooms, games and replays APIs and /metrics."""
