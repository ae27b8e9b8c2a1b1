"""Game data (boards, decks, locale strings) shipped as files; this package only locates them."""
