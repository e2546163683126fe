"""Real games in and out: Tenhou JSON and mjai logs, the walls that replay them, the checker."""
