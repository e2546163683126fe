"""The process: garbage-collector tuning, log lines, graceful stop."""
