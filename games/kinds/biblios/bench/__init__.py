"""Figures only Biblios' bots need: how well the Abbot reads hidden hands (`hands`), what a
searched decision gains (`search_gain`), and the greedy weights' tuning (`style`). Each prints
its figures, run as `python -m games.kinds.biblios.bench.<name>`; the platform's figures are in
`benchmarks/`."""
