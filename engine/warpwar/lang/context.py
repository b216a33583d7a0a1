"""What the writer of an order mail knows: the names orders may use, to resolve and to suggest."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.views import PlayerView


class LangContext(BaseModel):
    """Names a player's orders can use.

    ``knows_names`` is False for a context without game knowledge (:meth:`syntax_only`): then any
    well-formed ship name, enemy ship and hex number is taken as written, and places must be
    hex numbers.
    """

    model_config = ConfigDict(frozen=True)

    player: str
    places: dict[str, str] = Field(default_factory=dict, description="lower-case star name -> hex")
    hexes: frozenset[str] = frozenset()
    own_ships: frozenset[str] = frozenset()
    enemy_ships: frozenset[str] = frozenset()
    players: dict[str, str] = Field(default_factory=dict, description="lower-case player id or name -> id")
    star_names: dict[str, str] = Field(default_factory=dict, description="hex -> star name as printed")
    warpships_named: int = Field(0, description="highest W number given so far: unnamed BUILDs go on from it")
    systemships_named: int = Field(0, description="highest S number given so far")
    built_here: frozenset[str] = Field(
        frozenset(),
        description="names the BUILD lines of the block being read will give: the Build event comes "
        "before Movement, so the block's other orders may use them (the checker decides)",
    )
    knows_names: bool = True

    @classmethod
    def from_view(cls, view: PlayerView) -> LangContext:
        players = {p.name.lower(): p.id for p in view.players}
        players.update({p.id.lower(): p.id for p in view.players})
        return cls(
            player=view.player,
            places={star.name.lower(): star.hex for star in view.stars},
            hexes=frozenset(view.hexes),
            own_ships=frozenset(ship.name for ship in view.own_ships if not ship.destroyed),
            enemy_ships=frozenset(sighting.ship for sighting in view.enemy_ships),
            players=players,
            star_names={star.hex: star.name for star in view.stars},
            warpships_named=view.warpships_named,
            systemships_named=view.systemships_named,
        )

    @classmethod
    def syntax_only(cls, player: str) -> LangContext:
        return cls(player=player, players={player.lower(): player}, knows_names=False)
