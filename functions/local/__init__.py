"""Local mode: the AWS pipeline on one machine with no AWS account and no Docker.

The same handlers and the same state machine definition as in AWS, with AWS emulated by moto
in-process (:mod:`functions.local.aws`), plus what moto does not do: mail delivery into the
inbound bucket (:mod:`functions.local.intake`), the schedule ticking (:mod:`functions.local.clock`)
and SES sending captured into an outbox folder (:mod:`functions.local.outbox`). State survives a
restart (:mod:`functions.local.persist`). :class:`functions.local.host.LocalHost` puts them together.
"""
