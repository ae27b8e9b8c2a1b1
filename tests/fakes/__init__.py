"""The platforms as the tests meet them: fakes of Discord and Telegram that refuse what the real
ones refuse (their documented limits), with the real error bodies."""
