"""The LTA order language: reading an order mail against the player's view (``reader``), stored
orders printed back (``printer``), the orders sheet (``sheet``) and the roll list (``rolls``).
docs/lta-players.md is the players' guide."""
