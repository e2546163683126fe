"""Game records, rooms and seats behind one interface (``Store``), in SQLite or PostgreSQL."""
