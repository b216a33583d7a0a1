"""The host's services, between the thin handlers (functions/handlers) and the adapters
(functions/store, functions/mail): inbound mail and its commands, the turn workflow's steps."""
