"""The repository's tooling, not installed and never imported by product code: the benchmarks
behind ``tycoon bench`` (``bench/``), the Chromium driver of the browser tests and the web bench
(``headless``), the golden pictures' redrawing (``golden``) and the win model's fitting
(``fit_win_model``)."""
