"""The shared core every feature stands on: permissions, the unit of work, the engine bridge, the cache."""
