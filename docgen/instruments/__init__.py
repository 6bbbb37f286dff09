"""Counsel's edits to a recorded instrument: the redline, and the final text to record."""
