"""Seats that are not humans and not in-process bots: mjai AIs over a socket or over stdio."""
