"""The score of a match and its 95% interval, shared by the match runners.

`tools/vs_stockfish.py` and `tools/vs_old.py` report a player's score over
per-game points (1 a win, 0.5 a draw, 0 a loss) the same way, so that
their figures in docs/dev/engine-speed.md compare.
"""

import math


def interval(points):
    """The mean score and a 95% normal interval from per-game points."""
    n = len(points)
    mean = sum(points) / n
    variance = sum((p - mean) ** 2 for p in points) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)
