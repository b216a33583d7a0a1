"""WarpWar in a dozen lines, for the welcome mail a new player reads first."""

RULES_SUMMARY = """\
WarpWar is "a two- or multi-player game of tactical space combat": players
"build their own unique ships, move them between stars, and resolve combat
without dice". "The object of the game is to eliminate the opponent."
- "Play alternates between players in turns." In your player-turn you Build
  (Build Points, BP, come from the stars you own; ships are built, scrapped,
  repaired and resupplied at your Bases), then Move; combat follows.
- Movement: "the PD of a Warpship divided by 2 and rounded up gives its
  movement allowance in hexes". Warpships jump along warplines from the star
  at either end; Systemships move only when a Warpship carries them.
- "Combat MUST occur when ships of opposing sides occupy the same star hex at
  the end of a player's movement." Each round every ship is given a tactic
  (Attack, Dodge or Retreat), a target and its power for Drive, Beams,
  Screens, ECM and Tubes; the Combat Results Table decides each shot.
- Basic scenario: 40 BP to start and 8 each turn, one Base each; "The first
  player to destroy the opponent's Base is the winner." The Advanced scenario
  adds three Bases each, income from the stars you own, Holds, Repair Bays and
  technology."""
"""What a new player reads first (the welcome mail), in the rules' own words where quoted."""
