"""The wire and the connection edge: what a socket or an HTTP request meets before a
session or a route sees it."""
