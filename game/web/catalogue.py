"""The tile catalogue as the browser draws it: each tile type's features, unrotated."""

from __future__ import annotations

from functools import cache
from typing import Any

from game.engine.tiles import CATALOGUE


@cache
def catalogue_json() -> dict[str, Any]:
    return {
        letter: {
            "count": tile.count,
            "features": [
                {
                    "kind": feature.kind.value,
                    "locations": list(feature.locations),
                    "coat_of_arms": feature.coat_of_arms,
                }
                for feature in tile.features
            ],
        }
        for letter, tile in CATALOGUE.items()
    }
