"""Sessions: rooms, seats with their clocks and connections, spectators, and the table that
runs one game behind them."""
