"""Operations: health, metrics, housekeeping, services away, the read budget, settings."""
