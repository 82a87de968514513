"""The live transport: consumers, frames, limits per socket, presence, channel layers."""
