"""Lambda entry points: thin, over the services in functions/host."""
