"""Lambda entry points: thin, over the services in functions/host."""

TRACED_MODULES = ("botocore",)
"""What Powertools Tracer patches for X-Ray: the AWS calls, the only calls the functions make.
By default it patches every library the X-Ray SDK knows, importing those it finds (requests,
sqlite3, http.client, ...) into each cold start (benchmarks/import_time.py)."""
