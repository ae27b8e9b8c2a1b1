"""Pictures of public and per-seat views (Pillow): the board, the Deal table, hands, charts.

Empty until the pictures issue; renderers will draw only from ``view(state, seat)``.
"""
