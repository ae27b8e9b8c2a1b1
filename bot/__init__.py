"""Everything that faces people: the command line, the console game, text and (later) the chat
adapters. Holds no game rules: it turns engine views, actions and events into words and back.
"""
