"""Operations: health, metrics, housekeeping, the limits per address and the read budget,
and the answers given while a service the game depends on is away."""
