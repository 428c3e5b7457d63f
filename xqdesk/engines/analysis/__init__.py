"""An engine's judgement of finished games and positions: reviewing a game, annotating many
(resumable, locally or on a cluster), and checking tablebase distances against another engine."""
