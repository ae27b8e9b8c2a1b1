"""A toy third game, "race to ten", declared the way a real game is: one package (its rules, its
``Game`` and its part in each layer's registry), registered for a test by ``registered()``.
``tests/test_games.py`` plays it through every layer beside the real games, which shows what
adding a game takes: this package and the registries the conformance test names."""
