"""Power cuts lose nothing: the game journal on flash, its recorder and the recovery at power-up."""
