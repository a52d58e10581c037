"""Playing a game: the home page, a new play, the tracker and its taps, the result, the score sheet, joining from another device."""
