"""Inbound mail: reading what players send (MIME, charsets, HTML) into text the games parse."""
