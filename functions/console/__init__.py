"""The GM console: services over the store, the mail and the workflow (pydantic in, pydantic
out, no printing), and the ``warpmail`` commands that call them (docs/gm.md)."""
