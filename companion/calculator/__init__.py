"""The end-game calculators: a game's input schema drawn as one form, scored by the rules, saved to the history."""
