"""The referee: what hands do on the board, compared with the game, turned into moves and LED marks."""
