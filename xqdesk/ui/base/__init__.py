"""What every room of the window stands on: the translations, the typed settings, signal connections
tracked per game, background jobs, the texts that explain a failure, the message banner and sounds.
Imports no other room."""
