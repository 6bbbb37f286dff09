"""Case files: reading them safely, and the typed models each document kind accepts."""
