"""The statistics: the roster and the players' and games' pages, their figures and SVG charts."""
